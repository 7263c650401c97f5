import Composable
import Dependencies

/// Runs the feature's reducer inside a ``TestStore``, tagging the actions its effects send as
/// actions to receive.
struct TestReducer<Base: Reducer>: Reducer {
  let base: Base

  @Dependency(\.stackElementID) var stackElementID

  func reduce(
    into state: inout Base.State,
    action: TestAction<Base.Action>
  ) -> Effect<TestAction<Base.Action>> {
    // IDs logged before this reduction (taken by the test itself) are not the reducer's.
    _ = stackElementID.takeRecorded()
    return base.reduce(into: &state, action: action.action).map { .receive($0) }
  }
}
