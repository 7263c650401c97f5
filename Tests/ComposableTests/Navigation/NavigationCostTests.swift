import Clocks
import Composable
import Dependencies
import Testing

/// How the work of ending effects scales: counted in registry entries looked at, which is
/// deterministic where time is not. Each test runs the same step beside a few and many other
/// children with running effects, and expects the same count.
@MainActor
struct NavigationCostTests {
  /// A store whose stack holds `depth` counters, each with a running timer.
  func storeWithTickingCounters(_ depth: Int) -> Store<Navigator.State, Navigator.Action> {
    let store = Store(
      initialState: Navigator.State(
        path: StackState((0..<depth).map { _ in .counter(Counter.State()) })
      )
    ) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    for id in store.state.path.ids {
      store.send(.path(.element(id: id, action: .counter(.startTimerButtonTapped))))
    }
    return store
  }

  /// The entries looked at while sending `action`.
  func cost(
    of action: Navigator.Action,
    in store: Store<Navigator.State, Navigator.Action>
  ) -> Int {
    let before = store.effectRuntime.examinedEntryCount
    store.send(action)
    return store.effectRuntime.examinedEntryCount - before
  }

  func tearDown(_ store: Store<Navigator.State, Navigator.Action>) async {
    store.send(.popToRootButtonTapped)
    await store.effectRuntime.waitForRunningTasks()
    #expect(store.effectRuntime.cancellationKeyCount == 0)
    #expect(!store.effectRuntime.hasNavigatedEffects)
  }

  @Test func cancellingAnIDInOneElementCostsTheSameWhateverItsSiblings() async {
    var costs: [Int] = []
    for depth in [4, 40] {
      let store = storeWithTickingCounters(depth)
      let id = store.state.path.ids[1]
      let keysBefore = store.effectRuntime.cancellationKeyCount
      costs.append(
        cost(of: .path(.element(id: id, action: .counter(.stopTimerButtonTapped))), in: store)
      )
      #expect(store.effectRuntime.cancellationKeyCount < keysBefore)
      await tearDown(store)
    }
    #expect(costs[0] == costs[1])
  }

  @Test func pushingAndPoppingCostsTheSameWhateverRunsBelow() async {
    var pushCosts: [Int] = []
    var popCosts: [Int] = []
    for depth in [4, 40] {
      let store = storeWithTickingCounters(depth)
      pushCosts.append(cost(of: .pushCounterButtonTapped, in: store))
      let top = store.state.path.ids.last!
      store.send(.path(.element(id: top, action: .counter(.startTimerButtonTapped))))
      let keysBefore = store.effectRuntime.cancellationKeyCount
      popCosts.append(cost(of: .path(.popFrom(id: top)), in: store))
      #expect(store.effectRuntime.cancellationKeyCount < keysBefore)
      await tearDown(store)
    }
    #expect(pushCosts[0] == pushCosts[1])
    #expect(popCosts[0] == popCosts[1])
  }

  @Test func anActionThatChangesNoStackCostsTheSameWhateverRuns() async {
    var costs: [Int] = []
    for depth in [4, 40] {
      let store = storeWithTickingCounters(depth)
      let id = store.state.path.ids[0]
      costs.append(
        cost(of: .path(.element(id: id, action: .counter(.saveButtonTapped))), in: store)
      )
      await tearDown(store)
    }
    #expect(costs[0] == costs[1])
  }

  @Test func actionsThatLeaveAPresentationAloneNeverWorkOutItsIdentity() {
    let store = Store(initialState: TwinSheets.State()) {
      TwinSheets()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    store.send(.openBothButtonTapped)
    store.send(.left(.presented(.startTimerButtonTapped)))

    let identities = IdentityCount()
    ChildIdentityCounting.$count.withValue(identities) {
      for _ in 1...20 {
        store.send(.right(.presented(.timerTick)))
      }
    }

    // The right sheet's identity is worked out once per action, after its feature wrote
    // to it; the left sheet's, which nothing touched, never.
    #expect(identities.value == 20)
  }
}
