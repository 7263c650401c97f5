import CasePaths
import Composable
import ComposableTestSupport
import Testing

@MainActor
struct IfLetReducerTests {
  struct Parent: Reducer {
    struct State: Equatable {
      var child: ScopeTests.Counter.State?
      var log: [String] = []
    }

    @CasePathable
    enum Action: Equatable {
      case child(ScopeTests.Counter.Action)
      case toggleButtonTapped
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .child(.incrementButtonTapped):
          state.log.append("parent saw \(state.child?.count ?? -1)")
          return .none
        case .child:
          return .none
        case .toggleButtonTapped:
          state.child = state.child == nil ? ScopeTests.Counter.State() : nil
          return .none
        }
      }
      .ifLet(\.child, action: \.child) { ScopeTests.Counter() }
    }
  }

  @Test func theChildRunsBeforeTheParentWhileStateIsPresent() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }

    await store.send(.toggleButtonTapped) { $0.child = ScopeTests.Counter.State() }
    await store.send(.child(.incrementButtonTapped)) {
      $0.child?.count = 1
      $0.log = ["parent saw 1"]
    }
    await store.send(.toggleButtonTapped) { $0.child = nil }
  }

  @Test func aChildActionWhileStateIsNilIsReported() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }

    await withKnownIssue {
      await store.send(.child(.decrementButtonTapped))
    } matching: { issue in
      issue.says("An \"ifLet\" received a child action when child state was \"nil\"")
    }
  }
}
