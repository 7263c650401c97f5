import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import ConcurrencyExtras
import Dependencies
import Testing

@MainActor
struct CancellationTests {
  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }

    @CasePathable
    enum Action: Equatable {
      case cancelButtonTapped
      case queryChanged(String)
      case searchResponse([String])
      case watchButtonTapped
    }

    enum CancelID { case search, watch }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .cancelButtonTapped:
        return .merge(.cancel(id: CancelID.search), .cancel(id: CancelID.watch))
      case .queryChanged(let query):
        state.query = query
        return .run { send in
          try await clock.sleep(for: .milliseconds(300))
          await send(.searchResponse(["\(query) result"]))
        }
        .cancellable(id: CancelID.search, cancelInFlight: true)
      case .searchResponse(let results):
        state.results = results
        return .none
      case .watchButtonTapped:
        return .run { _ in
          try await clock.sleep(for: .seconds(60 * 60))
        }
        .cancellable(id: CancelID.watch)
      }
    }
  }

  @Test func cancelInFlightKeepsOnlyTheNewestEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.queryChanged("s")) { $0.query = "s" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("sw")) { $0.query = "sw" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("swi")) { $0.query = "swi" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.searchResponse, ["swi result"]) { $0.results = ["swi result"] }
    #expect(store.state.results == ["swi result"])
  }

  @Test func cancelStopsARunningEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    await store.send(.cancelButtonTapped)
    // Past the search's delay: a search still running would send its response now, and
    // `finish()`, which waits for the cancelled effect to wind down, would report it.
    await clock.advance(by: .milliseconds(300))
    await store.finish()
    #expect(store.state.results.isEmpty)
  }

  @Test func theSameIDInTwoStoresDoesNotCollide() async {
    let clock = TestClock()
    let first = Store(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let second = Store(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }

    let firstWatch = first.send(.watchButtonTapped)
    let secondWatch = second.send(.watchButtonTapped)
    second.send(.cancelButtonTapped)
    await secondWatch.finish()

    #expect(secondWatch.isCancelled)
    #expect(!firstWatch.isCancelled)
    #expect(first.runningEffectCount == 1)
    #expect(second.runningEffectCount == 0)

    first.send(.cancelButtonTapped)
    await firstWatch.finish()
    #expect(first.runningEffectCount == 0)
  }

  @Test func theRegistryIsEmptyOnceEffectsFinishOrAreCancelled() async {
    let store = Store(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }

    await store.send(.queryChanged("a")).finish()
    #expect(store.state.results == ["a result"])
    #expect(store.runningEffectCount == 0)
    #expect(store.effectRuntime.cancellationKeyCount == 0)

    let watch = store.send(.watchButtonTapped)
    #expect(store.runningEffectCount == 1)
    #expect(store.effectRuntime.cancellationKeyCount == 1)
    store.send(.cancelButtonTapped)
    await watch.finish()
    #expect(store.runningEffectCount == 0)
    #expect(store.effectRuntime.cancellationKeyCount == 0)
  }

  struct Steps: Reducer {
    struct State: Equatable { var steps: [Int] = [] }
    @CasePathable
    enum Action: Equatable {
      case start
      case step(Int)
      case stop
    }
    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .concatenate(
          (1...3).map { step in
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.step(step))
            }
          }
        )
        .cancellable(id: "steps")
      case .step(let step):
        state.steps.append(step)
        return .none
      case .stop:
        return .cancel(id: "steps")
      }
    }
  }

  @Test func cancellingAConcatenationSkipsTheRest() async {
    let clock = TestClock()
    let store = TestStore(initialState: Steps.State()) {
      Steps()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.start)
    await clock.advance(by: .seconds(1))
    await store.receive(.step(1)) { $0.steps = [1] }
    await store.send(.stop)
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.state.steps == [1])
  }
}

extension CancellationTests {
  @Test func cancellingNothingInFlightCancelsNothing() async {
    struct Watcher: Reducer {
      @Dependency(\.continuousClock) var clock
      func reduce(into state: inout Int, action: String) -> Effect<String> {
        switch action {
        case "watch":
          return .run { _ in try await clock.sleep(for: .seconds(60)) }.cancellable(id: "watch")
        case "nothing":
          return Effect.none.cancellable(id: "watch", cancelInFlight: true)
        default:
          return .cancel(id: "watch")
        }
      }
    }
    let store = TestStore(initialState: 0) {
      Watcher()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }

    await store.send("watch")
    await store.send("nothing")
    #expect(store.effectRuntime.runningCount == 1)
    await store.send("stop")
    await store.finish()
  }

  @Test func eachPartOfNestedMergesRunsUnderExactlyTheIdentifiersAroundIt() async {
    // A under "outer", "inner" and "a"; B under "outer" and "inner"; C under "outer"; D under
    // "d" alone. The walk starts them in that order, dropping one identifier before B and
    // before C, and the last one before D. Cancelling an identifier detaches its tasks from
    // every other identifier too, so a task under one too many takes that one away early.
    struct Nested: Reducer {
      @Dependency(\.continuousClock) var clock
      func reduce(into state: inout Int, action: String) -> Effect<String> {
        guard action == "start" else { return .cancel(id: action) }
        let wait = Effect<String>.run { _ in try await clock.sleep(for: .seconds(60)) }
        return .merge(
          .merge(
            .merge(wait.cancellable(id: "a"), wait).cancellable(id: "inner"),
            wait
          )
          .cancellable(id: "outer"),
          wait.cancellable(id: "d")
        )
      }
    }
    let store = TestStore(initialState: 0) {
      Nested()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }

    await store.send("start")
    #expect(store.effectRuntime.runningCount == 4)
    #expect(store.effectRuntime.cancellationKeyCount == 4)
    await store.send("a")
    #expect(store.effectRuntime.cancellationKeyCount == 3)
    await store.send("inner")
    #expect(store.effectRuntime.cancellationKeyCount == 2)
    await store.send("outer")
    #expect(store.effectRuntime.cancellationKeyCount == 1)
    await store.send("d")
    #expect(store.effectRuntime.cancellationKeyCount == 0)
    await store.finish()
  }

  @Test func aTaskCancelledByOneOfItsIdentifiersLeavesTheOthers() async {
    // A task under "outer" and "inner", cancelled by "inner". Left registered under "outer", it
    // would keep the identifier alive after it finished, and cancelling "outer" later would
    // reach the task that took its place in the registry, which then never sends.
    struct Twice: Reducer {
      @Dependency(\.continuousClock) var clock
      func reduce(into state: inout Int, action: String) -> Effect<String> {
        switch action {
        case "start":
          return .run { _ in try await clock.sleep(for: .seconds(60)) }
            .cancellable(id: "inner")
            .cancellable(id: "outer")
        case "other":
          return .run { send in
            try await clock.sleep(for: .seconds(60))
            await send("otherFinished")
          }
          .cancellable(id: "other")
        case "otherFinished":
          return .none
        default:
          return .cancel(id: action)
        }
      }
    }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Twice()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send("start")
    #expect(store.effectRuntime.cancellationKeyCount == 2)
    await store.send("inner")
    #expect(store.effectRuntime.cancellationKeyCount == 0)
    await store.effectRuntime.waitForRunningTasks()
    await store.send("other")
    await store.send("outer")
    await clock.advance(by: .seconds(60))
    await store.receive("otherFinished")
    await store.finish()
  }
}
