import Composable
import ConcurrencyExtras
import IssueReporting

extension TestStore {
  /// Waits for every running effect to finish, then checks that every action they sent was
  /// received.
  ///
  /// Waits until every tracked effect has finished, then reports received actions the test has
  /// not asserted (in a non-exhaustive test, they are shown as skipped when asked for, and
  /// their state is adopted either way). Call it at the end of a test whose effects finish on
  /// their own but asynchronously. A non-exhaustive test waits only for the effects that can
  /// finish without the test's help: those that finish once every effect ready to run has had
  /// its turn.
  ///
  /// ```swift
  /// await store.send(.saveButtonTapped)
  /// await store.receive(\.saved)
  /// await store.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let finished: Bool
    if exhaustivity == .on {
      finished = await progress.wait(until: { root.runtime.trackedRunningCount == 0 })
    } else {
      await settle()
      finished = root.runtime.trackedRunningCount == 0
    }
    await settle()
    settleReceivedActions(
      exhaustiveIssue: Self.unassertedActionsMessage(receivedActions.map(\.action)),
      location: location
    )
    guard !finished, exhaustivity == .on else { return }
    location.reportIssue(
      """
      Expected effects to finish, but the test was cancelled with \
      \(root.runtime.trackedRunningCount) still running. Effects started by:

      \(runningOrigins().map { "  • \(debugCaseOutput($0))" }.joined(separator: "\n"))
      """
    )
  }

  /// Discards the actions received from effects that the test has not asserted.
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
    await settle()
    guard let last = receivedActions.last else {
      if strict {
        CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
          .reportIssue("There were no received actions to skip.")
      }
      return
    }
    adopt(last.reduction.state)
    receivedActions.removeAll()
  }

  /// Stops expecting the effects running now to finish, without cancelling them.
  ///
  /// The effects go on, and the actions they send must still be received; they just no longer
  /// fail the test by running at its end. Useful for a long-living effect (a timer, a stream)
  /// that the part of the feature under test does not end.
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
    await settle()
    guard root.runtime.trackedRunningCount > 0 else {
      if strict {
        CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
          .reportIssue("There were no in-flight effects to skip.")
      }
      return
    }
    root.runtime.untrackRunningEffects()
  }
}
