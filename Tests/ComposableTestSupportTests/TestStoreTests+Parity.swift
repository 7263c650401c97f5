import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import ConcurrencyExtras
import Dependencies
import IssueReporting
import Testing

// What a test store reports, and when, where it matters that it behaves as the Composable
// Architecture's does: finishing, skipping, dismissing, reading state, and where failures point.

extension TestStoreTests {
  @Test func finishReportsReceivedActionsThatWereNotAsserted() async {
    let store = makeStore()

    await store.send(.loadButtonTapped)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.says("The store received 1 unexpected action", "loaded(\"Blob\")")
    }
    #expect(store.state.name == "Blob")
  }

  @Test func finishShowsWhatANonExhaustiveTestSkipped() async {
    let recorder = IssueCollector()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let store = makeStore()
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.loadButtonTapped)
      await store.finish()
    }

    #expect(recorder.messages.contains { $0.contains("Skipped") && $0.contains("loaded") })
  }

  @Test func appendingInANonExhaustiveAssertionNamesThePushedElement() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    store.exhaustivity = .off

    await store.send(.pushCounterButtonTapped) {
      $0.path.append(Counter.State())
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path.append(Counter.State())
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func anEffectStillRunningIsReportedAtTheSendThatStartedIt() async {
    struct Chain: Reducer {
      @Dependency(\.continuousClock) var clock
      func reduce(into state: inout Int, action: String) -> Effect<String> {
        switch action {
        case "start":
          return .send("started")
        case "started":
          return .run { _ in try await clock.sleep(for: .seconds(60)) }
        default:
          return .none
        }
      }
    }
    let line = LockIsolated(0)

    await withKnownIssue {
      let store = TestStore(initialState: 0) {
        Chain()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      line.setValue(#line + 1)
      await store.send("start")
      await store.receive("started")
    } matching: { issue in
      issue.says("An effect returned for this action is still running", "\"started\"")
        && issue.sourceLocation?.line == line.value
    }
  }

  @Test func aReceiveThatDoesNotMatchNamesTheCasePath() async {
    let store = makeStore()

    await store.send(.loadButtonTapped)
    await withKnownIssue {
      await store.receive(\.timerTick) { $0.name = "Blob" }
    } matching: { issue in
      issue.says("an action matching \\.timerTick", "loaded(\"Blob\")") && !issue.says("<computed")
    }
  }

  @Test func aReceiveOfNothingNamesTheCasePath() async {
    let store = makeStore()

    await store.send(.finishQuietlyButtonTapped)
    await withKnownIssue {
      await store.receive(\.loaded, "Blob")
    } matching: { issue in
      issue.says("an action matching \\.loaded") && !issue.says("<computed")
    }
  }

  @Test func skippingInFlightEffectsStopsTrackingThemWithoutCancelling() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)

    await store.send(.startTimerButtonTapped)
    await store.skipInFlightEffects()
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.count = 1 }
    await store.finish()
  }

  @Test func dismissingAtTheRootEndsTheTestStoresEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.startTimerButtonTapped)
    await store.send(.closeButtonTapped)
    #expect(store.isDismissed)
    await clock.advance(by: .seconds(5))
    #expect(store.effectRuntime.runningCount == 0)
  }

  @Test func stateFollowsTheAssertionsNotTheActionsStillToReceive() async {
    let store = makeStore()

    await store.send(.incrementButtonTapped) {
      #expect(store.state.count == 0)
      $0.count = 1
    }
    #expect(store.state.count == 1)
    await store.send(.loadButtonTapped)
    #expect(store.state.name == "")
    await store.receive(\.loaded) {
      #expect(store.state.name == "")
      $0.name = "Blob"
    }
    #expect(store.state.name == "Blob")
  }

  @Test func assertingWithActionsStillToReceiveIsReported() async {
    let store = makeStore()

    await store.send(.loadButtonTapped).finish()
    withKnownIssue {
      store.assert { $0.name = "Blob" }
    } matching: { issue in
      issue.says("Must handle 1 received action before asserting", "loaded(\"Blob\")")
        || issue.says("Expected state to change, but no change occurred")
    }
  }

  @Test func assertingStateThatIsAlreadyThereConfirmsIt() async {
    let recorder = IssueCollector()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let store = makeStore()
      await store.send(.incrementButtonTapped) { $0.count = 1 }
      store.assert { $0.count = 1 }
      store.assert { _ in }
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    }

    #expect(recorder.messages.isEmpty)
  }

  @Test func assertingAStateThatIsNotThereIsReported() async {
    let store = makeStore()

    await store.send(.incrementButtonTapped) { $0.count = 1 }
    withKnownIssue {
      store.assert { $0.count = 3 }
    } matching: { issue in
      issue.says("−   count: 3", "+   count: 1")
    }
  }

  @Test func aSendWhoseClosureChangesNothingIsStillReported() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.loaded("")) { $0.name = "" }
    } matching: { issue in
      issue.says("Expected state to change, but no change occurred")
    }
  }

  @Test func theWorkAnUntrackedEffectLeadsToIsUntrackedToo() async {
    struct Steps: Reducer {
      @Dependency(\.continuousClock) var clock
      func reduce(into state: inout Int, action: String) -> Effect<String> {
        guard action == "start" else { return .none }
        return .concatenate(
          .run { _ in try await clock.sleep(for: .seconds(1)) },
          .run { _ in try await clock.sleep(for: .seconds(60)) }
        )
      }
    }
    let clock = TestClock()
    let store = TestStore(initialState: 0) {
      Steps()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send("start")
    await store.skipInFlightEffects()
    await clock.advance(by: .seconds(1))
    #expect(store.effectRuntime.runningCount > 0)
  }
}

// A wait that must end ends on events, and fails once the timeout has passed; a non-exhaustive
// finish gives effects a second and lets them run, as the library's does. The bounds are measured
// here on a clock the tests advance, never on the wall clock.
extension TestStoreTests {
  @Test func aReceiveThatCanNeverBeAnsweredEndsWhenTheTestIsCancelled() async {
    let store = makeStore(clock: TestClock())
    await store.send(.startTimerButtonTapped)

    await withKnownIssue {
      let waiting = Task { await store.receive(\.timerTick) { $0.count = 1 } }
      waiting.cancel()
      await waiting.value
    } matching: { issue in
      issue.says("received none: the test was cancelled while effects were still running")
    }
    await store.skipInFlightEffects()
  }

  @Test func aFinishOnAnEffectThatNeverEndsFailsOnceTheTimeoutHasPassed() async {
    let timeoutClock = TestClock()
    let store = makeStore(clock: TestClock())
    store.timeoutClock = timeoutClock
    await store.send(.startTimerButtonTapped)

    await withKnownIssue {
      let finishing = Task { await store.finish() }
      await Task.megaYield()
      await timeoutClock.advance(by: store.timeout)
      await finishing.value
    } matching: { issue in
      issue.says(
        "Expected effects to finish, but there are still effects in-flight after 60.0 seconds.",
        "TestStoreTests.Feature.Action.startTimerButtonTapped"
      )
    }
    await store.effectRuntime.waitForRunningTasks()
    #expect(store.effectRuntime.runningCount == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func aNonExhaustiveFinishGivesEffectsASecondAndLetsALongLivingOneRun() async {
    let recorder = IssueCollector()
    let clock = TestClock()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let timeoutClock = TestClock()
      let store = makeStore(clock: clock)
      store.timeoutClock = timeoutClock
      store.timeout = .seconds(3600)
      store.exhaustivity = .off
      await store.send(.startTimerButtonTapped)

      let finishing = Task { await store.finish() }
      await Task.megaYield()
      await timeoutClock.advance(by: .seconds(1))
      await finishing.value
      #expect(store.effectRuntime.runningCount == 1)
      await clock.advance(by: .seconds(1))
      await store.receive(\.timerTick) { $0.count = 1 }
    }
    #expect(recorder.messages.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func aNonExhaustiveFinishShowsALongLivingEffectAsSkippedWhenAsked() async {
    let recorder = IssueCollector()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let timeoutClock = TestClock()
      let store = makeStore(clock: TestClock())
      store.timeoutClock = timeoutClock
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.startTimerButtonTapped)

      let finishing = Task { await store.finish() }
      await Task.megaYield()
      await timeoutClock.advance(by: .seconds(1))
      await finishing.value
    }
    #expect(
      recorder.messages.contains {
        $0.contains("Skipped assertions")
          && $0.contains("still effects in-flight after 1.0 seconds")
          && $0.contains("startTimerButtonTapped")
      }
    )
  }

  @Test func aNonExhaustiveTestMayEndWithAnEffectStillRunning() async {
    let recorder = IssueCollector()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let store = makeStore(clock: TestClock())
      store.exhaustivity = .off
      await store.send(.startTimerButtonTapped)
    }
    #expect(recorder.messages.isEmpty)
  }

  @Test func aNonExhaustiveTestWaitsForWorkDoneOffTheMainActorByReceivingWhatItSends() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.loadElsewhereButtonTapped)
    await store.receive(\.loaded)
    #expect(store.state.name == "Blob")
  }

  @Test(.timeLimit(.minutes(1)))
  func aNonExhaustiveSkipTakesWhatWasSentWithoutWaitingForEffects() async {
    let store = makeStore(clock: TestClock())
    // NB: Never advanced: a skip that waited for the timer would not return.
    store.timeoutClock = TestClock()
    store.exhaustivity = .off
    await store.send(.startTimerButtonTapped)
    await store.send(.loadButtonTapped)

    await store.skipReceivedActions()
    #expect(store.state.name == "Blob")
    #expect(store.effectRuntime.runningCount == 1)
  }

  @Test func skippingShowsWhatWasSkippedInAnExhaustiveTestButNotInAQuietOne() async {
    let exhaustive = IssueCollector()
    await withIssueReporters(IssueReporters.current + [exhaustive]) {
      let store = makeStore(clock: TestClock())
      await store.send(.loadButtonTapped)
      await store.skipReceivedActions()
      await store.send(.startTimerButtonTapped)
      await store.skipInFlightEffects()
    }
    #expect(
      exhaustive.messages.count == 2
        && exhaustive.messages[0].contains("1 received action was skipped")
        && exhaustive.messages[1].contains("1 in-flight effect was skipped")
    )

    let quiet = IssueCollector()
    await withIssueReporters(IssueReporters.current + [quiet]) {
      let store = makeStore(clock: TestClock())
      store.exhaustivity = .off
      await store.send(.loadButtonTapped)
      await store.skipReceivedActions()
      await store.send(.startTimerButtonTapped)
      await store.skipInFlightEffects()
    }
    #expect(quiet.messages.isEmpty)
  }

  @Test func aReceiveThatCanNeverBeAnsweredFailsOnceTheTimeoutHasPassed() async {
    let timeoutClock = TestClock()
    let store = makeStore(clock: TestClock())
    store.timeoutClock = timeoutClock
    await store.send(.startTimerButtonTapped)

    await withKnownIssue {
      let receiving = Task { await store.receive(\.timerTick) { $0.count = 1 } }
      await Task.megaYield()
      await timeoutClock.advance(by: store.timeout)
      await receiving.value
    } matching: { issue in
      issue.says("received none: effects were still running after 60.0 seconds")
    }
    await store.skipInFlightEffects()
  }

  @Test func aTasksFinishOnAnEffectThatNeverEndsFailsOnceTheTimeoutHasPassed() async {
    let timeoutClock = TestClock()
    let store = makeStore(clock: TestClock())
    store.timeoutClock = timeoutClock
    let task = await store.send(.startTimerButtonTapped)

    await withKnownIssue {
      let finishing = Task { await task.finish() }
      await Task.megaYield()
      await timeoutClock.advance(by: store.timeout)
      await finishing.value
    } matching: { issue in
      issue.says("Expected task to finish, but it is still in-flight after 60.0 seconds.")
    }
    #expect(task.isCancelled)
  }
}
