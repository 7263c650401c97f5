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
    // NB: What the recording generator logged before this reduction (IDs a test took itself)
    // is not what the reducer generated; the test store reads the log again afterwards.
    _ = stackElementID.takeRecorded()
    return base.reduce(into: &state, action: action.action).map { .receive($0) }
  }
}
