import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
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

  /// A parent with an optional counter that runs its own timer under the same cancel ID as the
  /// child's.
  struct TimerParent: Reducer {
    struct State: Equatable {
      var child: Counter.State?
      var parentTicks = 0
    }

    @CasePathable
    enum Action: Equatable {
      case child(Counter.Action)
      case parentTick
      case startParentTimerButtonTapped
      case stopParentTimerButtonTapped
      case toggleChildButtonTapped
    }

    @Dependency(\.continuousClock) var clock

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .child:
          return .none
        case .parentTick:
          state.parentTicks += 1
          return .none
        case .startParentTimerButtonTapped:
          return .run { send in
            for await _ in clock.timer(interval: .seconds(1)) {
              await send(.parentTick)
            }
          }
          .cancellable(id: Counter.CancelID.timer)
        case .stopParentTimerButtonTapped:
          return .cancel(id: Counter.CancelID.timer)
        case .toggleChildButtonTapped:
          state.child = state.child == nil ? Counter.State() : nil
          return .none
        }
      }
      .ifLet(\.child, action: \.child) { Counter() }
    }
  }

  @Test func settingTheChildToNilCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerParent.State()) {
      TimerParent()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleChildButtonTapped) { $0.child = Counter.State() }
    await store.send(.child(.startTimerButtonTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(\.child.timerTick) { $0.child?.count = 1 }
    await store.send(.toggleChildButtonTapped) { $0.child = nil }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func theChildsCancelIDsDoNotReachTheParent() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerParent.State()) {
      TimerParent()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startParentTimerButtonTapped)
    await store.send(.toggleChildButtonTapped) { $0.child = Counter.State() }
    await store.send(.child(.startTimerButtonTapped))
    await store.send(.child(.stopTimerButtonTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(\.parentTick) { $0.parentTicks = 1 }
    await store.send(.stopParentTimerButtonTapped)
    await store.expectNothingLeftRunning()
  }

  @Test func replacingTheChildWithAnotherEndsTheFirstsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Replacer.State()) {
      Replacer()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.showButtonTapped(id: 1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.startButtonTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(\.child.tick) { $0.child?.ticks = 1 }
    await store.send(.showButtonTapped(id: 2)) { $0.child = Ticker.State(id: 2) }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aChildRemovedBeforeTheOperatorRunsHasItsEffectsEnded() async {
    let clock = TestClock()
    let store = TestStore(initialState: Replacer.State()) {
      Replacer()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.showButtonTapped(id: 1)) { $0.child = Ticker.State(id: 1) }
    await store.send(.child(.startButtonTapped))
    await store.send(.clearedElsewhere) { $0.child = nil }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func theParentStillRunsForAChildActionWhileStateIsNil() async {
    let store = TestStore(initialState: OptionalAuditor.State()) { OptionalAuditor() }

    await withKnownIssue {
      await store.send(.child(.saveButtonTapped)) { $0.seen = 1 }
    } matching: { issue in
      issue.says("An \"ifLet\" received a child action when child state was \"nil\"")
    }
  }
}

/// Counts every action it sees, with an optional counter run by `ifLet`.
private struct OptionalAuditor: Reducer {
  struct State: Equatable {
    var child: Counter.State?
    var seen = 0
  }
  @CasePathable
  enum Action: Equatable { case child(Counter.Action) }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.seen += 1
      return .none
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}

/// A child with an identity and a timer.
private struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var ticks = 0
  }

  @CasePathable
  enum Action: Equatable {
    case startButtonTapped
    case tick
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startButtonTapped:
      return .run { send in
        for await _ in clock.timer(interval: .seconds(1)) {
          await send(.tick)
        }
      }
    case .tick:
      state.ticks += 1
      return .none
    }
  }
}

/// Shows one ticker at a time, and clears it from a reducer that runs before the `ifLet`.
private struct Replacer: Reducer {
  struct State: Equatable {
    var child: Ticker.State?
  }

  @CasePathable
  enum Action: Equatable {
    case child(Ticker.Action)
    case clearedElsewhere
    case showButtonTapped(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .clearedElsewhere = action { state.child = nil }
      return .none
    }
    Reduce { state, action in
      if case .showButtonTapped(let id) = action { state.child = Ticker.State(id: id) }
      return .none
    }
    .ifLet(\.child, action: \.child) { Ticker() }
  }
}
