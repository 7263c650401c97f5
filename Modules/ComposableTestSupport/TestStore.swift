public import Composable
import CustomDump
public import Dependencies
import IssueReporting
import Synchronization

/// A store for tests that makes you assert, step by step, how a feature behaves.
///
/// Every `send(_:assert:)` states exactly how the state must
/// change; every action an effect sends must be received with
/// ``receive(_:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_)``; and every
/// effect must have finished by the end of the test. Anything else is reported as a test failure
/// (through IssueReporting, so Swift Testing and XCTest both see it) with a diff of what was
/// expected (`−`) and what happened (`+`).
///
/// ```swift
/// @MainActor
/// @Test func timer() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Feature.State()) {
///     Feature()
///   } withDependencies: {
///     $0.continuousClock = clock
///   }
///   await store.send(.startButtonTapped) { $0.isRunning = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
///   await store.send(.stopButtonTapped) { $0.isRunning = false }
/// }
/// ```
///
/// While any test store is alive, tasks run on the main serial executor, so that effects
/// interleave with the test deterministically. Test stores share that executor by count with
/// `withSerialEffects(_:)`, so one test ending never switches it off under another. A wait that
/// must end (an action to receive, the effects of an exhaustive test) ends on events (an action
/// arrives, an effect finishes), and fails the test only once ``timeout``, a bound far longer
/// than any wait that ends, has passed, so a busy machine cannot fail a passing test. A
/// non-exhaustive test may leave a long-living effect running, as in the library.
///
/// > Important: Failures reach Swift Testing on Linux only when the test binary links
/// > `IssueReportingTestSupport`; this module depends on it for that reason.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  /// The dependencies of the reducer and of the effects it starts from now on.
  ///
  /// Override them mid-test to change what later actions see:
  ///
  /// ```swift
  /// store.dependencies.uuid = .incrementing
  /// ```
  public var dependencies: DependencyValues {
    get { root.dependencies }
    set { root.dependencies = newValue }
  }

  /// How long a wait that must end may last before it fails the test: an exhaustive
  /// ``finish(timeout:fileID:filePath:line:column:)``, a `receive`, a task's `finish()`. A minute
  /// unless set.
  ///
  /// Those waits end on the event they wait for (an action arrives, an effect finishes), so this
  /// bound decides nothing in a test that passes; it only guards against a run that hangs, such
  /// as an exhaustive `finish()` on a timer nobody stops, which then fails with the message the
  /// Composable Architecture gives. It is long so that a test starved of turns by the others in
  /// its process is not taken for a hung one. (The library polls, and fails after one second.)
  /// A non-exhaustive `finish()`, which an effect may outlive, waits one second unless told.
  ///
  /// ```swift
  /// store.timeout = .seconds(30)
  /// ```
  public var timeout: Duration = .seconds(60)

  /// How strictly the test is checked. Exhaustive by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { ledger.withLock { $0.exhaustivity = exhaustivity } }
  }

  /// The state as of the last assertion.
  ///
  /// After `send(_:assert:)` it is the state the action left,
  /// after a `receive` the state the received action left: actions that effects sent but the
  /// test has not received yet are not in it. Read inside an assertion closure, it is the state
  /// the closure was given.
  public var state: State {
    stateInAssertion ?? assertedState
  }

  /// Whether the feature dismissed itself with the `dismiss` dependency at the root.
  ///
  /// A dismissed store accepts no more actions, and its effects are cancelled.
  public private(set) var isDismissed = false

  let root: RootStore<State, TestAction<Action>>
  let progress: Progress
  let location: CodeLocation
  /// What the test expects the state to be, before the next assertion.
  var expectedState: State
  /// The actual state after the last asserted action.
  var assertedState: State
  /// The state given to the assertion closure that is running, if one is.
  var stateInAssertion: State?
  /// The reduction of the last action sent, once it has run.
  var sentReduction: Reduction?
  var receivedActions: [(action: Action, reduction: Reduction)] = [] {
    didSet { ledger.withLock { $0.pendingActions = receivedActions.map(\.action) } }
  }

  /// What reducing one action did: the state it left, and the stack element IDs it generated,
  /// which an assertion replays so that elements it creates get the same IDs.
  struct Reduction {
    let state: State
    let generatedIDs: [StackElementID]
    let nextID: StackElementID
  }

  /// What the end-of-test checks need, readable from whichever thread releases the store.
  private let ledger = Mutex(Ledger())

  private struct Ledger {
    var exhaustivity = Exhaustivity.on
    var pendingActions: [Action] = []
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from, built with the test's dependencies in effect.
  ///   - reducer: The reducer under test.
  ///   - prepareDependencies: Overrides dependencies for the reducer and its effects.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    SerialEffects.acquire()
    let progress = Progress()
    let runtime = EffectRuntime(recordsOrigins: true) { [weak progress] in
      Task { @MainActor in progress?.signal() }
    }
    let dismissal = Dismissal()
    let (state, reducer, dependencies) = DependencyValues.forNewStore(
      initialState: initialState,
      reducer: reducer,
      prepare: {
        $0.dismiss = DismissEffect { @MainActor in dismissal.dismiss() }
        prepareDependencies(&$0)
      }
    )
    dependencies.stackElementID.startRecording()
    self.root = RootStore(
      state: state,
      reducer: TestReducer(base: reducer),
      dependencies: dependencies,
      runtime: runtime
    )
    self.progress = progress
    self.location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.expectedState = state
    self.assertedState = state
    root.didReduce = { [weak self] action, state in
      self?.didReduce(action, state: state)
    }
    dismissal.onDismiss = { [weak self] in
      self?.isDismissed = true
      self?.root.runtime.cancelAll()
    }
  }

  deinit {
    // NB: Not isolated, so the checks run in the test's task and their failures are the test's
    // (`TestStoreTests.anEffectStillRunningIsReportedAtTheSendThatStartedIt`).
    let ledger = ledger.withLock { $0 }
    Self.reportUnfinishedWork(
      exhaustivity: ledger.exhaustivity,
      pendingActions: ledger.pendingActions,
      runningEffects: Self.effectsBySend(root.runtime.runningEffects),
      at: location
    )
    root.runtime.cancelAll()
    Task { @MainActor in SerialEffects.release() }
  }

  private func didReduce(_ action: TestAction<Action>, state: State) {
    let generator = root.dependencies.stackElementID
    let reduction = Reduction(
      state: state,
      generatedIDs: generator.takeRecorded(),
      nextID: generator.peek()
    )
    switch action {
    case .send:
      sentReduction = reduction
    case .receive(let action):
      receivedActions.append((action, reduction))
      progress.signal()
    }
  }

  /// The actions whose effects are still running, grouped by the `send` that started them
  /// (effects of received actions belong to the send whose effects sent them).
  nonisolated static func effectsBySend(
    _ effects: [(origin: any Sendable, label: (any Sendable)?)]
  ) -> [(location: CodeLocation?, origins: [Action])] {
    var groups: [(location: CodeLocation?, origins: [Action])] = []
    for (origin, label) in effects {
      guard let origin = (origin as? TestAction<Action>)?.action else { continue }
      let location = label as? CodeLocation
      if let index = groups.firstIndex(where: { $0.location == location }) {
        groups[index].origins.append(origin)
      } else {
        groups.append((location, [origin]))
      }
    }
    return groups
  }

  /// Reports, at the end of a test, what it left unasserted.
  private nonisolated static func reportUnfinishedWork(
    exhaustivity: Exhaustivity,
    pendingActions: [Action],
    runningEffects: [(location: CodeLocation?, origins: [Action])],
    at location: CodeLocation
  ) {
    switch exhaustivity {
    case .on:
      if !pendingActions.isEmpty {
        location.reportIssue(unassertedActionsMessage(pendingActions))
      }
      for (sendLocation, origins) in runningEffects {
        (sendLocation ?? location).reportIssue(stillRunningMessage(origins))
      }
    case .off(let showSkippedAssertions):
      guard showSkippedAssertions, !pendingActions.isEmpty || !runningEffects.isEmpty else {
        return
      }
      let effectCount = runningEffects.map(\.origins.count).reduce(0, +)
      withExpectedIssue {
        location.reportIssue(
          """
          Skipped assertions: \(pendingActions.count) received \
          action\(pendingActions.count == 1 ? "" : "s") and \(effectCount) running \
          effect\(effectCount == 1 ? "" : "s") were not asserted.
          """
        )
      }
    }
  }

  nonisolated static func unassertedActionsMessage(_ actions: [Action]) -> String {
    """
    The store received \(actions.count) unexpected \
    action\(actions.count == 1 ? "" : "s") by the end of this test:

    \(describe(actions))

    Assert them with "receive", or skip them with "skipReceivedActions".
    """
  }

  /// The Composable Architecture's message for effects still running at the end of a test.
  nonisolated static func stillRunningMessage(_ origins: [Action]) -> String {
    """
    An effect returned for this action is still running. It must complete before the end of \
    the test. \(origins.count == 1 ? "It was" : "They were") started by:

    \(origins.map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))

    If it waits on a clock, advance the test clock far enough; if it is long-living (a timer, \
    a stream), send the action that cancels it; or call "await store.finish()" to wait for \
    it, or "skipInFlightEffects" to stop tracking it.
    """
  }

  /// The Composable Architecture's message when `finish()` has waited ``timeout`` for effects
  /// that are still running.
  nonisolated static func stillInFlightMessage(_ origins: [Action], after timeout: Duration)
    -> String
  {
    """
    Expected effects to finish, but there are still effects in-flight after \(timeout).

    There are effects in-flight. If the effect that delivers this action uses a clock, make sure \
    that you wait enough time for it to perform the effect. If you are using a test clock, \
    advance it so that the effects may complete, or consider using an immediate clock to \
    immediately perform the effect instead. \(origins.count == 1 ? "It was" : "They were") \
    started by:

    \(origins.map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))
    """
  }

  /// Reports what `finish()` left running when its wait ended without the effects.
  ///
  /// In an exhaustive test that is a failure: after `waited`, with the Composable Architecture's
  /// message and the actions that started them, which are then cancelled so that the end of the
  /// test does not report them again; or that the test was cancelled first. In a non-exhaustive
  /// test an effect may outlive it, so they are only shown as skipped, and go on.
  func reportUnfinishedEffects(
    after outcome: Progress.Outcome,
    waited: Duration,
    at location: CodeLocation
  ) {
    guard outcome != .happened else { return }
    let message =
      outcome == .timedOut
      ? Self.stillInFlightMessage(runningOrigins(), after: waited)
      : """
      Expected effects to finish, but the test was cancelled with \
      \(root.runtime.trackedRunningCount) still running. Effects started by:

      \(runningOrigins().map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))
      """
    guard exhaustivity == .on else {
      showSkipped(message, at: location)
      return
    }
    location.reportIssue(message)
    if outcome == .timedOut {
      root.runtime.cancelAll()
    }
  }

  nonisolated static func describe(_ actions: [Action]) -> String {
    actions.map { String(customDumping: $0).indented(by: 2) }.joined(separator: "\n")
  }

  /// The clock ``timeout`` is measured on: the wall clock, unless the test store's own tests set
  /// one they advance.
  package var timeoutClock: any Clock<Duration> {
    get { progress.clock }
    set { progress.clock = newValue }
  }

  /// The effect runtime of the store, for tests that check that nothing is left behind.
  package var effectRuntime: EffectRuntime {
    root.runtime
  }

  /// The actions that started the effects still running, oldest first.
  func runningOrigins() -> [Action] {
    root.runtime.runningEffects.compactMap { ($0.origin as? TestAction<Action>)?.action }
  }

  func describeReceivedActions() -> String {
    Self.describe(receivedActions.map(\.action))
  }
}

/// Relays a root-level `dismiss` to the test store, which does not exist yet when its
/// dependencies are prepared.
@MainActor
private final class Dismissal {
  var onDismiss: (() -> Void)?

  func dismiss() {
    onDismiss?()
  }
}

extension String {
  func indented(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }
}
