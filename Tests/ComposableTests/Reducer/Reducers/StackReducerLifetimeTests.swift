import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

/// A stack whose elements are also removed by the reducers around its `forEach`: one listed
/// before it in the body and one after it.
struct Bystanders: Reducer {
  struct State: Equatable {
    var path = StackState<Counter.State>()
    var seen: [String] = []
  }

  @CasePathable
  enum Action: Equatable {
    case nothingHappened
    case path(StackAction<Counter.State, Counter.Action>)
    case pushButtonTapped
    case removeAllAfterForEach
    case removeAllBeforeForEach
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .removeAllBeforeForEach = action {
        state.path.removeAll()
      }
      return .none
    }
    Reduce { state, action in
      switch action {
      case .path(.element(let id, _)):
        state.seen.append("element \(id)")
      case .path(.popFrom(let id)):
        state.seen.append("popFrom \(id)")
      case .path(.push(let id, _)):
        state.seen.append("push \(id)")
      case .pushButtonTapped:
        state.path.append(Counter.State())
      case .nothingHappened, .removeAllAfterForEach, .removeAllBeforeForEach:
        break
      }
      return .none
    }
    .forEach(\.path, action: \.path) { Counter() }
    Reduce { state, action in
      if case .removeAllAfterForEach = action {
        state.path.removeAll()
      }
      return .none
    }
  }
}

/// A feature around ``Bystanders`` that changes its stack from outside, before and after the
/// child runs.
struct Grandparent: Reducer {
  struct State: Equatable {
    var child = Bystanders.State()
  }

  @CasePathable
  enum Action: Equatable {
    case child(Bystanders.Action)
    case clearAfterChildButtonTapped
    case clearBeforeChildButtonTapped
    case replaceChildButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearBeforeChildButtonTapped:
        state.child.path = StackState()
      case .replaceChildButtonTapped:
        state.child = Bystanders.State()
      case .child, .clearAfterChildButtonTapped:
        break
      }
      return .none
    }
    Scope(state: \.child, action: \.child) { Bystanders() }
    Reduce { state, action in
      if case .clearAfterChildButtonTapped = action {
        state.child.path.removeLast()
      }
      return .none
    }
  }
}

@MainActor
struct StackReducerLifetimeTests {
  let clock = TestClock()

  func makeStore() -> TestStore<Grandparent.State, Grandparent.Action> {
    TestStore(initialState: Grandparent.State()) {
      Grandparent()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  /// Pushes a counter and starts its timer, which has ticked once when this returns.
  func pushTickingCounter(into store: TestStore<Grandparent.State, Grandparent.Action>) async {
    await store.send(.child(.pushButtonTapped)) {
      $0.child.path.append(Counter.State())
    }
    let id = store.state.child.path.ids.last!
    await store.send(.child(.path(.element(id: id, action: .startTimerButtonTapped)))) {
      $0.child.seen.append("element \(id)")
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.child.path[id: id].timerTick) {
      $0.child.path[id: id]?.count = 1
      $0.child.seen.append("element \(id)")
    }
  }

  @Test func aRemovalByAReducerBeforeTheForEachEndsTheElementsEffects() async {
    let store = makeStore()
    await pushTickingCounter(into: store)

    await store.send(.child(.removeAllBeforeForEach)) { $0.child.path = StackState() }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aRemovalByAReducerAfterTheForEachEndsByTheNextAction() async {
    let store = makeStore()
    await pushTickingCounter(into: store)

    await store.send(.child(.removeAllAfterForEach)) { $0.child.path = StackState() }
    await store.send(.child(.nothingHappened))
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aGrandparentClearingTheStackEndsTheElementsEffectsByTheNextChildAction() async {
    let store = makeStore()
    await pushTickingCounter(into: store)

    await store.send(.clearBeforeChildButtonTapped) { $0.child.path = StackState() }
    await store.send(.child(.nothingHappened))
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aGrandparentReplacingTheWholeChildEndsTheElementsEffectsByTheNextChildAction()
    async
  {
    let store = makeStore()
    await pushTickingCounter(into: store)

    await store.send(.replaceChildButtonTapped) { $0.child = Bystanders.State() }
    await store.send(.child(.nothingHappened))
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func aGrandparentRemovingAfterTheChildRanEndsByTheNextAction() async {
    let store = makeStore()
    await store.send(.child(.pushButtonTapped)) {
      $0.child.path.append(Counter.State())
    }
    await pushTickingCounter(into: store)

    await store.send(.clearAfterChildButtonTapped) { $0.child.path.removeLast() }
    await store.send(.child(.nothingHappened))
    await clock.advance(by: .seconds(5))
    #expect(store.state.child.path.ids == [0])
    await store.expectNothingLeftRunning()
  }

  @Test func aLateActionOfAnElementRemovedOutsideTheForEachIsDroppedQuietly() async {
    let store = makeStore()
    await pushTickingCounter(into: store)

    await store.send(.child(.removeAllAfterForEach)) { $0.child.path = StackState() }
    // The timer fires before any other action reaches the stack: its tick is the action that
    // tells the stack its element is gone.
    await clock.advance(by: .seconds(1))
    await store.receive(\.child.path[id: 0].timerTick) {
      $0.child.seen.append("element #0")
    }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  // MARK: - Pushes from outside the reducer

  @Test func aViewLayerPushesWithAnIDTheStoreMints() async {
    let store = Store(initialState: Bystanders.State()) { Bystanders() }

    store.send(.pushButtonTapped)
    let id = store.makeStackElementID()
    store.send(.path(.push(id: id, state: Counter.State(count: 7))))
    store.send(.pushButtonTapped)

    #expect(store.state.path.ids == [0, 1, 2])
    #expect(store.state.path.map(\.count) == [0, 7, 0])
  }

  @Test func aPushOfAnOlderUnusedIDIsAccepted() async {
    let store = TestStore(initialState: Bystanders.State()) { Bystanders() }
    let older = store.dependencies.stackElementID()

    await store.send(.pushButtonTapped) { $0.path.append(Counter.State()) }
    await store.send(.path(.push(id: older, state: Counter.State(count: 3)))) {
      $0.path[id: older] = Counter.State(count: 3)
      $0.seen = ["push #0"]
    }
    #expect(store.state.path.ids == [1, 0])
  }

  @Test func aPushOfAnIDTheGeneratorHasNotReachedIsReportedInTests() async {
    let store = TestStore(initialState: Bystanders.State()) { Bystanders() }

    await withKnownIssue {
      await store.send(.path(.push(id: 5, state: Counter.State()))) {
        $0.path[id: 5] = Counter.State()
        $0.seen = ["push #5"]
      }
    } matching: { issue in
      issue.says("received a push of element #5", "has not generated it yet")
    }
  }

  // MARK: - The parent still runs when an action is reported

  @Test func theParentSeesAnActionForAMissingElement() async {
    let store = TestStore(initialState: Bystanders.State()) { Bystanders() }

    await withKnownIssue {
      await store.send(.path(.element(id: 4, action: .saveButtonTapped))) {
        $0.seen = ["element #4"]
      }
    } matching: { issue in
      issue.says("received an action for element #4", "the stack has no element with that ID")
    }
  }

  @Test func theParentSeesAPopOfAMissingElement() async {
    let store = TestStore(initialState: Bystanders.State()) { Bystanders() }

    await withKnownIssue {
      await store.send(.path(.popFrom(id: 2))) {
        $0.seen = ["popFrom #2"]
      }
    } matching: { issue in
      issue.says("received a pop of element #2, which is not on the stack")
    }
  }

  @Test func theParentSeesADuplicatePush() async {
    let store = TestStore(initialState: Bystanders.State()) { Bystanders() }

    await store.send(.pushButtonTapped) { $0.path.append(Counter.State()) }
    await withKnownIssue {
      await store.send(.path(.push(id: 0, state: Counter.State(count: 9)))) {
        $0.seen = ["push #0"]
      }
    } matching: { issue in
      issue.says("received a push of element #0, but the stack already has an element")
    }
    #expect(store.state.path[id: 0] == Counter.State())
  }
}
