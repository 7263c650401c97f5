import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Testing

@MainActor
struct StackReducerTests {
  let clock = TestClock()

  func makeStore(
    _ state: @autoclosure () -> Navigator.State = Navigator.State()
  ) -> TestStore<Navigator.State, Navigator.Action> {
    TestStore(initialState: state()) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func pushGivesElementsDeterministicIDs() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    await store.send(.pushSheetHostButtonTapped) {
      $0.path.append(.sheetHost(SheetHost.State()))
    }
    #expect(store.state.path.ids == [0, 1])
    await store.expectNothingLeftRunning()
  }

  @Test func pushActionsInsertElementsWithTheirIDs() async {
    let store = makeStore()

    await store.send(.path(.push(id: 0, state: .counter(Counter.State())))) {
      $0.path[id: 0] = .counter(Counter.State())
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func aChildPopsItselfWithDismiss() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    await store.send(\.path[id: 0].counter.closeButtonTapped)
    await store.receive(\.path.popFrom, 0) {
      $0.path = StackState()
    }
    await store.expectNothingLeftRunning()
  }

  @Test func aChildThatCapturesDismissPopsItself() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    await store.send(\.path[id: 0].counter.closeWithCapturedDismissButtonTapped)
    await store.receive(\.path.popFrom, 0) {
      $0.path = StackState()
    }
    #expect(!store.isDismissed)
    await store.expectNothingLeftRunning()
  }

  @Test func theParentPopsAnElement() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(.removeTopButtonTapped) { $0.path.removeLast() }
    #expect(store.state.path.ids == [0])
  }

  @Test func popFromAnIntermediateElementPopsEverythingAboveIt() async {
    let store = makeStore()

    for _ in 1...3 {
      await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    }
    await store.send(.path(.popFrom(id: 1))) {
      $0.path.pop(from: 1)
    }
    #expect(store.state.path.ids == [0])
  }

  struct Auditor: Reducer {
    struct State: Equatable {
      var path = StackState<Counter.State>()
      var poppedCounts: [Int] = []
    }
    @CasePathable
    enum Action: Equatable {
      case path(StackAction<Counter.State, Counter.Action>)
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .path(.popFrom(let id)) = action, let element = state.path[id: id] {
          state.poppedCounts.append(element.count)
        }
        return .none
      }
      .forEach(\.path, action: \.path) { Counter() }
    }
  }

  @Test func theParentSeesTheElementItIsPopping() async {
    let store = TestStore(
      initialState: Auditor.State(path: StackState([Counter.State(count: 7)]))
    ) {
      Auditor()
    }

    await store.send(.path(.popFrom(id: 0))) {
      $0.path = StackState()
      $0.poppedCounts = [7]
    }
  }

  @Test func aDeepLinkedChildDismissesItself() async {
    let store = makeStore(
      Navigator.State(
        path: StackState([.counter(Counter.State()), .counter(Counter.State(count: 5))])
      )
    )

    await store.send(\.path[id: 1].counter.closeButtonTapped)
    await store.receive(\.path.popFrom, 1) {
      $0.path.removeLast()
    }
    #expect(store.state.path.ids == [0])
    await store.expectNothingLeftRunning()
  }

  @Test func aStackHoldsSeveralKindsOfFeatures() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(.pushSheetHostButtonTapped) { $0.path.append(.sheetHost(SheetHost.State())) }
    await store.send(\.path[id: 0].counter.saveButtonTapped)
    await store.receive(\.path[id: 0].counter.delegate.saved, 0) { $0.saved = [0] }
    await store.send(\.path[id: 1].sheetHost.sheetButtonTapped) {
      $0.path[id: 1, case: \.sheetHost]?.destination = .sheet(Counter.State())
    }
  }

  // MARK: - Effects

  @Test func popFromCancelsTheElementsEffects() async {
    let store = makeStore()

    await startTimer(in: store)
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func removingAnElementInTheParentCancelsItsEffects() async {
    let store = makeStore()

    await startTimer(in: store)
    await store.send(.removeTopButtonTapped) { $0.path = StackState() }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func replacingThePathCancelsTheOldElementsEffects() async {
    let store = makeStore()

    await startTimer(in: store)
    await store.send(.replacePathButtonTapped) {
      $0.path = StackState([.counter(Counter.State(count: 100))])
    }
    #expect(store.state.path.ids == [1])
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func dismissCancelsTheElementsEffects() async {
    let store = makeStore()

    await startTimer(in: store)
    await store.send(\.path[id: 0].counter.closeButtonTapped)
    await store.receive(\.path.popFrom, 0) { $0.path = StackState() }
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func siblingsUsingTheSameCancelIDDoNotCancelEachOther() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(\.path[id: 0].counter.startTimerButtonTapped)
    await store.send(\.path[id: 1].counter.startTimerButtonTapped)
    await store.send(\.path[id: 0].counter.stopTimerButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 1].counter.timerTick) {
      $0.path[id: 1, case: \.counter]?.count = 1
    }
    await store.send(\.path[id: 1].counter.stopTimerButtonTapped)
    await store.expectNothingLeftRunning()
  }

  @Test func aPoppedElementsEffectsNeverReachANewElement() async {
    let store = makeStore()

    await startTimer(in: store)
    await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await clock.advance(by: .seconds(5))
    #expect(store.state.path[id: 1, case: \.counter]?.count == 0)
    await store.expectNothingLeftRunning()
  }

  @Test func aParentCanCancelItsChildrensEffects() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(\.path[id: 0].counter.startTimerButtonTapped)
    await store.send(\.path[id: 1].counter.startTimerButtonTapped)
    await store.send(.stopAllTimersButtonTapped)
    await clock.advance(by: .seconds(5))
    await store.expectNothingLeftRunning()
  }

  @Test func anElementEffectStartedInTheActionThatPopsItIsCancelled() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(\.path[id: 0].counter.startTimerButtonTapped)
    await store.send(.popToRootButtonTapped) { $0.path = StackState() }
    await clock.advance(by: .seconds(3))
    await store.expectNothingLeftRunning()
  }

  // MARK: - Reported, not crashing

  @Test func anActionForAMissingElementIsReported() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(\.path[id: 7].counter.saveButtonTapped)
    } matching: { issue in
      issue.says(
        "A \"forEach\" received an action for element #7",
        "The element was probably popped before the action arrived"
      )
    }
    #expect(store.state.saved.isEmpty)
  }

  @Test func popFromAMissingElementIsReported() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.path(.popFrom(id: 3)))
    } matching: { issue in
      issue.says("received a pop of element #3, which is not on the stack")
    }
  }

  @Test func pushingAReusedIDIsReported() async {
    let store = makeStore()

    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await withKnownIssue {
      await store.send(.path(.push(id: 0, state: .counter(Counter.State(count: 9)))))
    } matching: { issue in
      issue.says("received a push of element #0, but the stack already has an element")
    }
    #expect(store.state.path[id: 0] == .counter(Counter.State()))
  }

  @Test func aMismatchedIDShowsInTheDiff() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.pushCounterButtonTapped) {
        $0.path[id: 4] = .counter(Counter.State())
      }
    } matching: { issue in
      issue.says("A state change does not match expectation", "−     #4:", "+     #0:")
    }
  }

  @Test func anElementActionRunsTheElementFirstAndWritesTheElementInPlace() {
    // Built once, as a store builds its feature, and run without a store, so that nothing
    // else holds the stack's storage.
    let reducer = CombineReducers { Tally() }
    var state = Tally.State(stack: StackState([1, 2]))
    let top = state.stack.ids[1]
    let storage = state.stack.storageIdentity

    _ = reducer.reduce(into: &state, action: .stack(.element(id: top, action: .increment)))
    #expect(state.stack[id: top] == 3)
    #expect(state.valuesSeenByParent == [3])
    #expect(state.stack.storageIdentity == storage)

    let copy = state.stack
    _ = reducer.reduce(into: &state, action: .stack(.element(id: top, action: .increment)))
    #expect(state.stack[id: top] == 4)
    #expect(state.valuesSeenByParent == [3, 4])
    #expect(copy[id: top] == 3)
    #expect(state.stack.storageIdentity != copy.storageIdentity)
  }

  private func startTimer(in store: TestStore<Navigator.State, Navigator.Action>) async {
    await store.send(.pushCounterButtonTapped) { $0.path.append(.counter(Counter.State())) }
    await store.send(\.path[id: 0].counter.startTimerButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].counter.timerTick) {
      $0.path[id: 0, case: \.counter]?.count = 1
    }
  }
}

/// A stack of counters whose parent records the value of each element it sees an action for.
private struct Tally: Reducer {
  struct State: Equatable {
    var stack: StackState<Int>
    var valuesSeenByParent: [Int] = []
  }

  @CasePathable
  enum Action: Sendable {
    case stack(StackAction<Int, Incrementer.Action>)
  }

  struct Incrementer: Reducer {
    enum Action: Sendable {
      case increment
    }

    func reduce(into state: inout Int, action: Action) -> Effect<Action> {
      state += 1
      return .none
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .stack(.element(let id, _)) = action, let value = state.stack[id: id] {
        state.valuesSeenByParent.append(value)
      }
      return .none
    }
    .forEach(\.stack, action: \.stack) { Incrementer() }
  }
}
