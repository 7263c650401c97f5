import CasePaths
import Composable
import Dependencies

/// A screen with a timer and a close button.
struct Counter: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }

  @CasePathable
  enum Action: Equatable, Sendable {
    case closeButtonTapped
    case startTimerButtonTapped
    case timerTick
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeButtonTapped:
      return .run { _ in await dismiss() }
    case .startTimerButtonTapped:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.timerTick)
        }
      }
    case .timerTick:
      state.count += 1
      return .none
    }
  }
}

/// A root feature with a stack of counters.
struct Navigator: Reducer {
  struct State: Equatable {
    var path = StackState<Counter.State>()
  }

  @CasePathable
  enum Action: Equatable {
    case path(StackAction<Counter.State, Counter.Action>)
    case pushCounterButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .pushCounterButtonTapped = action {
        state.path.append(Counter.State())
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Counter() }
  }
}
