import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import IssueReporting
import Testing

@MainActor
struct TestStoreTests {
  struct Feature: Reducer {
    struct State: Equatable {
      var count = 0
      var name = ""
    }

    @CasePathable
    enum Action: Equatable {
      case finishQuietlyButtonTapped
      case incrementButtonTapped
      case loadButtonTapped
      case loadElsewhereButtonTapped
      case loaded(String)
      case renameButtonTapped
      case startTimerButtonTapped
      case timerTick
    }

    @Dependency(\.continuousClock) var clock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .finishQuietlyButtonTapped:
        return .run { _ in }
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .loadButtonTapped:
        return .run { send in await send(.loaded("Blob")) }
      case .loadElsewhereButtonTapped:
        return .run { send in
          // Work done off the main actor, as a database's is: settling does not wait for it.
          let name = await Task.detached {
            for _ in 0..<100 { await Task.yield() }
            return "Blob"
          }.value
          await send(.loaded(name))
        }
      case .loaded(let name):
        state.name = name
        return .none
      case .renameButtonTapped:
        state.name = "Renamed"
        state.count += 10
        return .none
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

  func makeStore(clock: some Clock<Duration> = ImmediateClock()) -> TestStore<
    Feature.State, Feature.Action
  > {
    TestStore(initialState: Feature.State()) {
      Feature()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func aWrongStateExpectationIsReportedWithADiff() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.incrementButtonTapped) { $0.count = 2 }
    } matching: { issue in
      issue.says(
        "A state change does not match expectation",
        "−   count: 2",
        "+   count: 1",
        "(Expected: −, Actual: +)"
      )
    }
  }

  @Test func anUnexpectedChangeIsReported() async {
    let store = makeStore()

    await withKnownIssue {
      await store.send(.incrementButtonTapped)
    } matching: { issue in
      issue.says("State was not expected to change, but a change occurred", "+   count: 1")
    }
  }

  @Test func anUnexpectedReceivedActionIsReported() async {
    let store = makeStore()

    await store.send(.loadButtonTapped)
    await withKnownIssue {
      await store.receive(.loaded("Blobby")) { $0.name = "Blob" }
    } matching: { issue in
      issue.says(
        "Received unexpected action",
        "− TestStoreTests.Feature.Action.loaded(\"Blobby\")",
        "+ TestStoreTests.Feature.Action.loaded(\"Blob\")"
      )
    }
  }

  @Test func anActionNeverReceivedIsReported() async {
    let store = makeStore()

    await store.send(.finishQuietlyButtonTapped)
    await withKnownIssue {
      await store.receive(\.loaded)
    } matching: { issue in
      issue.says(
        "Expected to receive an action matching",
        "but received none: no effect that could send it is still running"
      )
    }
  }

  @Test func sendingBeforeReceivingIsReported() async {
    let store = makeStore()

    await store.send(.loadButtonTapped).finish()
    await withKnownIssue {
      await store.send(.incrementButtonTapped) { $0.count = 1 }
    } matching: { issue in
      issue.says("Must handle 1 received action before sending", ".loaded(\"Blob\")")
    }
  }

  @Test func anEffectStillRunningAtTheEndIsReported() async {
    let clock = TestClock()

    await withKnownIssue {
      let store = makeStore(clock: clock)
      await store.send(.startTimerButtonTapped)
      await clock.advance(by: .seconds(1))
      await store.receive(\.timerTick) { $0.count = 1 }
    } matching: { issue in
      issue.says(
        "An effect returned for this action is still running",
        "TestStoreTests.Feature.Action.startTimerButtonTapped"
      )
    }
  }

  @Test func anUnreceivedActionAtTheEndIsReported() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.loadButtonTapped)
      await store.finish()
    } matching: { issue in
      issue.says("The store received 1 unexpected action by the end of this test", "Blob")
    }
  }

  @Test func skippingReceivedActionsAdoptsTheirState() async {
    let store = makeStore()

    await store.send(.loadButtonTapped).finish()
    await store.skipReceivedActions()
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    #expect(store.state.name == "Blob")
  }

  @Test func nonExhaustiveTestsCheckOnlyWhatTheyAssert() async {
    let store = makeStore()
    store.exhaustivity = .off

    await store.send(.renameButtonTapped) { $0.name = "Renamed" }
    await store.send(.loadButtonTapped)
    await store.send(.incrementButtonTapped) { $0.count = 11 }
  }

  @Test func nonExhaustiveTestsStillFailOnWhatTheyAssert() async {
    let store = makeStore()
    store.exhaustivity = .off

    await withKnownIssue {
      await store.send(.renameButtonTapped) { $0.name = "Wrong" }
    } matching: { issue in
      issue.says("A state change does not match expectation", "−   name: \"Wrong\"")
    }
  }

  @Test func skippedAssertionsAreShownWhenAskedFor() async {
    let recorder = IssueCollector()
    await withIssueReporters(IssueReporters.current + [recorder]) {
      let store = makeStore()
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.renameButtonTapped) { $0.name = "Renamed" }
    }

    #expect(recorder.messages.count == 1)
    #expect(recorder.messages.first?.contains("Skipped assertions") == true)
    #expect(recorder.messages.first?.contains("+   count: 10") == true)
  }

  @Test func dependenciesCanChangeMidTest() async {
    struct Stamp: Reducer {
      @Dependency(\.date.now) var now
      func reduce(into state: inout [Double], action: Void) -> Effect<Void> {
        state.append(now.timeIntervalSince1970)
        return .none
      }
    }
    let store = TestStore(initialState: [Double]()) {
      Stamp()
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1)
    }

    await store.send(()) { $0 = [1] }
    store.dependencies.date.now = Date(timeIntervalSince1970: 2)
    await store.send(()) { $0 = [1, 2] }
  }
}
