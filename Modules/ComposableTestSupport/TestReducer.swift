import Composable

/// Runs the feature's reducer inside a ``TestStore``, tagging the actions its effects send as
/// actions to receive.
struct TestReducer<Base: Reducer>: Reducer {
  let base: Base

  func reduce(
    into state: inout Base.State,
    action: TestAction<Base.Action>
  ) -> Effect<TestAction<Base.Action>> {
    base.reduce(into: &state, action: action.action).map { .receive($0) }
  }
}
