import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

@MainActor
struct EffectTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var log: [String] = []
    }

    @CasePathable
    enum Action: Equatable {
      case concatenateButtonTapped
      case countdownButtonTapped
      case mapButtonTapped
      case mappedRunButtonTapped(priority: TaskPriority)
      case mergeButtonTapped
      case nestedMapButtonTapped
      case nestedSendButtonTapped
      case number(Int)
      case record(String)
      case runButtonTapped(priority: TaskPriority)
      case sendButtonTapped
      case started(priority: TaskPriority?)
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .concatenateButtonTapped:
        return .concatenate(
          .send(.record("first")),
          .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.record("second"))
          },
          .send(.record("third"))
        )
      case .countdownButtonTapped:
        return .run { send in
          for count in (1...3).reversed() {
            await send(.number(count))
          }
        }
      case .mapButtonTapped:
        return Effect<Int>.run { send in
          await send(7)
          await send(8)
        }
        .map(Action.number)
      case .mappedRunButtonTapped(let priority):
        return Effect<TaskPriority?>.run(priority: priority) { send in
          await send(Task.basePriority)
        }
        .map { Action.started(priority: $0) }
      case .mergeButtonTapped:
        return .merge(
          .run { [clock] send in
            try await clock.sleep(for: .seconds(2))
            await send(.record("slow"))
          },
          .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            await send(.record("fast"))
          }
        )
      case .nestedMapButtonTapped:
        return Effect<Int>.merge(
          .send(1),
          Effect<Int>.merge(.send(2), .send(3)).cancellable(id: "numbers"),
          .concatenate(.send(4), .send(5)),
          .send(6)
        )
        .map(Action.number)
      case .nestedSendButtonTapped:
        return .merge(
          .send(.record("a")),
          Effect.merge(.send(.record("b")), .send(.record("c"))).cancellable(id: "records"),
          .concatenate(.send(.record("d")), .send(.record("e"))),
          .send(.record("f"))
        )
      case .number(let number):
        state.log.append("\(number)")
        return .none
      case .record(let entry):
        state.log.append(entry)
        return .none
      case .runButtonTapped(let priority):
        return .run(priority: priority) { send in
          await send(.started(priority: Task.basePriority))
        }
      case .sendButtonTapped:
        return .send(.record("sent"))
      case .started(let priority):
        state.log.append("started at \(priority.map { "\($0.rawValue)" } ?? "no priority")")
        return .none
      }
    }
  }

  @Test func sendDeliversTheActionImmediately() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }

    await store.send(.sendButtonTapped)
    await store.receive(.record("sent")) { $0.log = ["sent"] }
  }

  @Test func runSendsSeveralActionsInOrder() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }

    await store.send(.countdownButtonTapped)
    await store.receive(.number(3)) { $0.log = ["3"] }
    await store.receive(.number(2)) { $0.log = ["3", "2"] }
    await store.receive(.number(1)) { $0.log = ["3", "2", "1"] }
  }

  @Test func mergeRunsEffectsConcurrently() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.mergeButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.record("fast")) { $0.log = ["fast"] }
    await clock.advance(by: .seconds(1))
    await store.receive(.record("slow")) { $0.log = ["fast", "slow"] }
  }

  @Test func concatenateRunsEffectsOneAfterAnother() async {
    let clock = TestClock()
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.concatenateButtonTapped)
    await store.receive(.record("first")) { $0.log = ["first"] }
    await clock.advance(by: .milliseconds(999))
    #expect(store.state.log == ["first"])
    await clock.advance(by: .milliseconds(1))
    await store.receive(.record("second")) { $0.log = ["first", "second"] }
    await store.receive(.record("third")) { $0.log = ["first", "second", "third"] }
  }

  @Test func synchronousSendsArriveInTheOrderOfTheTree() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    }

    await store.send(.nestedSendButtonTapped)
    await store.receive(.record("a")) { $0.log = ["a"] }
    await store.receive(.record("b")) { $0.log = ["a", "b"] }
    await store.receive(.record("c")) { $0.log = ["a", "b", "c"] }
    await store.receive(.record("d")) { $0.log = ["a", "b", "c", "d"] }
    await store.receive(.record("e")) { $0.log = ["a", "b", "c", "d", "e"] }
    await store.receive(.record("f")) { $0.log = ["a", "b", "c", "d", "e", "f"] }
  }

  @Test func mapKeepsTheOrderOfATree() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    }

    await store.send(.nestedMapButtonTapped)
    for number in 1...6 {
      await store.receive(.number(number)) { $0.log.append("\(number)") }
    }
  }

  @Test func mapTransformsEveryAction() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }

    await store.send(.mapButtonTapped)
    await store.receive(.number(7)) { $0.log = ["7"] }
    await store.receive(.number(8)) { $0.log = ["7", "8"] }
  }

  // The base priority, because a task that a higher-priority task awaits runs escalated;
  // and priorities no caller runs at, so that a task that inherited its caller's would fail.
  @Test func runStartsItsTaskAtThePriorityItWasGivenAlsoWhenMapped() async {
    let store = TestStore(initialState: Feature.State()) {
      Feature()
    }

    await store.send(.runButtonTapped(priority: .low))
    await store.receive(.started(priority: .low)) {
      $0.log = ["started at \(TaskPriority.low.rawValue)"]
    }
    await store.send(.mappedRunButtonTapped(priority: .background))
    await store.receive(.started(priority: .background)) {
      $0.log.append("started at \(TaskPriority.background.rawValue)")
    }
  }
}
