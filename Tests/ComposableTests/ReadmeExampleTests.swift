// The example of README.md ("A tour of the core"), compiled and run so that the README stays
// true. Keep the two in sync.

import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

struct Stopwatch: Reducer {
  struct State: Equatable {
    var isRunning = false
    var secondsElapsed = 0
  }

  @CasePathable
  enum Action {
    case startButtonTapped
    case stopButtonTapped
    case tick
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        state.isRunning = true
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .stopButtonTapped:
        state.isRunning = false
        return .cancel(id: CancelID.timer)

      case .tick:
        state.secondsElapsed += 1
        return .none
      }
    }
  }
}

@MainActor @Test func stopwatch() async {
  let clock = TestClock()
  let store = TestStore(initialState: Stopwatch.State()) {
    Stopwatch()
  } withDependencies: {
    $0.continuousClock = clock
  }

  await store.send(.startButtonTapped) { $0.isRunning = true }
  await clock.advance(by: .seconds(1))
  await store.receive(\.tick) { $0.secondsElapsed = 1 }
  await store.send(.stopButtonTapped) { $0.isRunning = false }
}
