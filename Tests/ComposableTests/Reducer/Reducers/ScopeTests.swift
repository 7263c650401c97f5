import CasePaths
import Composable
import ComposableTestSupport
import Testing

@MainActor
struct ScopeTests {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0 }
    @CasePathable
    enum Action: Equatable {
      case decrementButtonTapped
      case delegate(Delegate)
      case incrementButtonTapped

      @CasePathable
      enum Delegate: Equatable { case reachedZero }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return state.count == 0 ? .send(.delegate(.reachedZero)) : .none
      case .delegate:
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var counter = Counter.State()
      var mode = Mode.State.counter(Counter.State())
      var zeroes = 0
    }

    @CasePathable
    enum Action: Equatable {
      case counter(Counter.Action)
      case mode(Mode.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Scope(state: \.mode, action: \.mode) { Mode() }
      Reduce { state, action in
        switch action {
        case .counter(.delegate(.reachedZero)):
          state.zeroes += 1
          return .none
        case .counter, .mode:
          return .none
        }
      }
    }
  }

  struct Mode: Reducer {
    @CasePathable
    enum State: Equatable {
      case counter(Counter.State)
      case off
    }

    @CasePathable
    enum Action: Equatable {
      case counter(Counter.Action)
      case turnOffButtonTapped
    }

    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
      Reduce { state, action in
        switch action {
        case .counter:
          return .none
        case .turnOffButtonTapped:
          state = .off
          return .none
        }
      }
    }
  }

  @Test func aKeyPathScopeRunsTheChildAndLiftsItsEffects() async {
    let store = TestStore(initialState: Parent.State(counter: Counter.State(count: 1))) {
      Parent()
    }

    await store.send(.counter(.incrementButtonTapped)) { $0.counter.count = 2 }
    await store.send(.counter(.decrementButtonTapped)) { $0.counter.count = 1 }
    await store.send(.counter(.decrementButtonTapped)) { $0.counter.count = 0 }
    await store.receive(\.counter.delegate.reachedZero) { $0.zeroes = 1 }
  }

  @Test func aCaseKeyPathScopeRunsTheChildInItsCase() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }

    await store.send(.mode(.counter(.incrementButtonTapped))) {
      $0.mode = .counter(Counter.State(count: 1))
    }
    await store.send(.mode(.turnOffButtonTapped)) { $0.mode = .off }
  }

  @Test func aChildActionForAnotherCaseIsReportedAndIgnored() async {
    let store = TestStore(initialState: Parent.State(mode: .off)) { Parent() }

    await withKnownIssue {
      await store.send(.mode(.counter(.incrementButtonTapped)))
    } matching: { issue in
      issue.says("received a child action when child state was set to a different case")
    }
    #expect(store.state.mode == .off)
  }
}
