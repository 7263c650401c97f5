import Composable
import IssueReporting

extension TestStore {
  /// Waits for the running effects to finish, then checks that every action they sent was
  /// received.
  ///
  /// In an exhaustive test every effect must finish: the wait ends as soon as the last one does,
  /// and one still running after `timeout` fails the test, with the Composable Architecture's
  /// message, and is cancelled. In a non-exhaustive test an effect may outlive the test (a timer,
  /// a stream), as in the library: `finish()` gives the effects `timeout` to end, one second
  /// unless given, and reports those still running only as a skipped assertion, when
  /// `showSkippedAssertions` asks for them. Received actions the test has not asserted are
  /// reported (in a non-exhaustive test, shown as skipped when asked for), and their state is
  /// adopted either way.
  ///
  /// ```swift
  /// await store.send(.saveButtonTapped)
  /// await store.receive(\.saved)
  /// await store.finish()
  /// ```
  ///
  /// > Important: A non-exhaustive `finish()` is no way to wait for an effect's work. An
  /// > integration test that checks what an effect did (a database, a file) waits for that: it
  /// > receives the action the effect sends when it is done.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for the effects. By default, ``timeout`` (a guard against a
  ///     hang) in an exhaustive test and one second, the library's default, in a non-exhaustive
  ///     one.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let bound = timeout ?? (exhaustivity == .on ? self.timeout : Self.nonExhaustiveFinishTimeout)
    let outcome = await progress.wait(
      until: { root.runtime.trackedRunningCount == 0 },
      atMost: bound
    )
    await settle()
    settleReceivedActions(
      exhaustiveIssue: Self.unassertedActionsMessage(receivedActions.map(\.action)),
      location: location
    )
    reportUnfinishedEffects(after: outcome, waited: bound, at: location)
  }

  /// How long a non-exhaustive ``finish(timeout:fileID:filePath:line:column:)`` waits unless
  /// told: the Composable Architecture's default timeout.
  static var nonExhaustiveFinishTimeout: Duration { .seconds(1) }

  /// Discards the actions received from effects that the test has not asserted.
  ///
  /// As in the library, it lets the effects that are ready run their turn and takes what they
  /// sent; it does not wait for effects to finish, so a long-living one (a timer) goes on. The
  /// skipped actions are shown as a skipped assertion in an exhaustive test, and in a
  /// non-exhaustive one that asks with `showSkippedAssertions`.
  ///
  /// ```swift
  /// await store.send(.onAppear)
  /// await store.skipReceivedActions()
  /// ```
  ///
  /// - Parameters:
  ///   - strict: Whether to report an issue when there is nothing to skip.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    guard let last = receivedActions.last else {
      if strict {
        location.reportIssue("There were no received actions to skip.")
      }
      return
    }
    showSkipped(
      """
      \(receivedActions.count) received action\(receivedActions.count == 1 ? " was" : "s were") \
      skipped:

      \(describeReceivedActions())
      """,
      at: location
    )
    adopt(last.reduction.state)
    receivedActions.removeAll()
  }

  /// Stops expecting the effects running now to finish, without cancelling them.
  ///
  /// The effects go on, and the actions they send must still be received; they just no longer
  /// fail the test by running at its end. Useful for a long-living effect (a timer, a stream)
  /// that the part of the feature under test does not end. The skipped effects are shown as a
  /// skipped assertion, as ``skipReceivedActions(strict:fileID:filePath:line:column:)`` shows
  /// actions.
  ///
  /// ```swift
  /// await store.send(.onTask)  // starts a long-living effect
  /// await store.skipInFlightEffects()
  /// ```
  ///
  /// - Parameters:
  ///   - strict: Whether to report an issue when no effect is running.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await settle()
    guard root.runtime.trackedRunningCount > 0 else {
      if strict {
        location.reportIssue("There were no in-flight effects to skip.")
      }
      return
    }
    let origins = runningOrigins()
    showSkipped(
      """
      \(origins.count) in-flight effect\(origins.count == 1 ? " was" : "s were") skipped, \
      started by:

      \(origins.map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))
      """,
      at: location
    )
    root.runtime.untrackRunningEffects()
  }

  /// Shows what the test chose not to assert as a skipped assertion: a known issue, so the test
  /// passes and its output still says what was skipped. An exhaustive test that skips on purpose
  /// always shows it; a non-exhaustive one when `showSkippedAssertions` asks.
  func showSkipped(_ message: @autoclosure () -> String, at location: CodeLocation) {
    guard exhaustivity != .off(showSkippedAssertions: false) else { return }
    withExpectedIssue {
      location.reportIssue("Skipped assertions: …\n\n\(message())")
    }
  }
}
