import CasePaths
import Composable
import ComposableTestSupport
import Testing

@MainActor
struct OnChangeTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var count = 0
      var changes: [String] = []
    }

    @CasePathable
    enum Action: Equatable {
      case incrementButtonTapped
      case noopButtonTapped
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .incrementButtonTapped:
          state.count += 1
          return .none
        case .noopButtonTapped:
          state.count += 0
          return .none
        }
      }
      .onChange(of: \.count) { oldValue, newValue in
        Reduce { state, _ in
          state.changes.append("\(oldValue) → \(newValue)")
          return .none
        }
      }
    }
  }

  @Test func runsOnlyWhenTheValueChanged() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }

    await store.send(.incrementButtonTapped) {
      $0.count = 1
      $0.changes = ["0 → 1"]
    }
    await store.send(.noopButtonTapped)
  }
}
