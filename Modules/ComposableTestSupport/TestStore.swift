public import Composable
import CustomDump
public import Dependencies
import IssueReporting
import Synchronization

/// A store for tests that makes you assert, step by step, how a feature behaves.
///
/// Every ``send(_:assert:fileID:filePath:line:column:)`` states exactly how the state must
/// change; every action an effect sends must be received with
/// ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)``; and every
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
/// interleave with the test deterministically. Waiting for an action or for effects to finish is
/// event-driven; ``timeout`` only bounds how long a failing test waits.
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

  /// How strictly the test is checked. Exhaustive by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { ledger.withLock { $0.exhaustivity = exhaustivity } }
  }

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Action,_,_,_,_,_,_)`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait before failing.
  public var timeout: Duration

  /// The current state of the store, including changes made by actions not yet received.
  public var state: State {
    root.state
  }

  /// Whether the feature dismissed itself with the `dismiss` dependency at the root.
  ///
  /// A dismissed store accepts no more actions.
  public private(set) var isDismissed = false

  let root: RootStore<State, TestAction<Action>>
  let progress: Progress
  let location: CodeLocation
  var expectedState: State
  var sentState: State?
  var sentNextStackElementID: StackElementID?
  /// The next stack element ID before the most recent reduction: IDs an assertion creates start
  /// here, so that they match the ones the reducer created.
  var nextStackElementID: StackElementID
  var receivedActions: [(action: Action, state: State, nextStackElementID: StackElementID)] = []
  {
    didSet { ledger.withLock { $0.pendingActions = receivedActions.map(\.action) } }
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
  ///   - timeout: How long to wait for an expected action or for effects to finish.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    MainSerialExecutorLease.acquire()
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
    self.root = RootStore(
      state: state,
      reducer: TestReducer(base: reducer),
      dependencies: dependencies,
      runtime: runtime
    )
    self.progress = progress
    self.timeout = timeout
    self.location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.expectedState = state
    self.nextStackElementID = dependencies.stackElementID.peek()
    root.didReduce = { [weak self] action, state in
      self?.didReduce(action, state: state)
    }
    dismissal.onDismiss = { [weak self] in
      self?.isDismissed = true
    }
  }

  deinit {
    // NB: The checks run on the thread that releases the store, inside the test's task, so
    // that their failures are attributed to the test. An isolated deinit would lose the test's
    // task-locals.
    let ledger = ledger.withLock { $0 }
    Self.reportUnfinishedWork(
      exhaustivity: ledger.exhaustivity,
      pendingActions: ledger.pendingActions,
      runningOrigins: root.runtime.runningOrigins.compactMap {
        ($0 as? TestAction<Action>)?.action
      },
      at: location
    )
    root.runtime.cancelAll()
    Task { @MainActor in MainSerialExecutorLease.release() }
  }

  private func didReduce(_ action: TestAction<Action>, state: State) {
    let nextIDBefore = nextStackElementID
    nextStackElementID = root.dependencies.stackElementID.peek()
    switch action {
    case .send:
      sentState = state
      sentNextStackElementID = nextIDBefore
    case .receive(let action):
      receivedActions.append((action, state, nextIDBefore))
      progress.signal()
    }
  }

  /// Reports, at the end of a test, what it left unasserted.
  private nonisolated static func reportUnfinishedWork(
    exhaustivity: Exhaustivity,
    pendingActions: [Action],
    runningOrigins origins: [Action],
    at location: CodeLocation
  ) {
    switch exhaustivity {
    case .on:
      if !pendingActions.isEmpty {
        location.reportIssue(
          """
          The store received \(pendingActions.count) unexpected \
          action\(pendingActions.count == 1 ? "" : "s") by the end of this test:

          \(describe(pendingActions))

          Assert them with "receive", or skip them with "skipReceivedActions".
          """
        )
      }
      if !origins.isEmpty {
        location.reportIssue(
          """
          \(origins.count) effect\(origins.count == 1 ? " is" : "s are") still running at the \
          end of the test. Effects started by:

          \(origins.map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))

          Every effect must finish before the test ends. If it waits on a clock, advance the \
          test clock far enough; if it is long-living (a timer, a stream), send the action \
          that cancels it; or call "await store.finish()" to wait for it, or \
          "skipInFlightEffects" to cancel it.
          """
        )
      }
    case .off(let showSkippedAssertions):
      guard showSkippedAssertions, !pendingActions.isEmpty || !origins.isEmpty else { return }
      withExpectedIssue {
        location.reportIssue(
          """
          Skipped assertions: \(pendingActions.count) received \
          action\(pendingActions.count == 1 ? "" : "s") and \(origins.count) running \
          effect\(origins.count == 1 ? "" : "s") were not asserted.
          """
        )
      }
    }
  }

  nonisolated static func describe(_ actions: [Action]) -> String {
    actions.map { String(customDumping: $0).indented(by: 2) }.joined(separator: "\n")
  }

  /// The effect runtime of the store, for tests that check that nothing is left behind.
  package var effectRuntime: EffectRuntime {
    root.runtime
  }

  func runningOrigins() -> [Action] {
    root.runtime.runningOrigins.compactMap { ($0 as? TestAction<Action>)?.action }
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
