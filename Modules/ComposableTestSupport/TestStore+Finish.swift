import Composable
import IssueReporting

extension TestStore {
  /// Waits for every running effect to finish, then checks that every action they sent was
  /// received.
  ///
  /// Waits until every tracked effect has finished, then reports received actions the test has
  /// not asserted (in a non-exhaustive test, they are shown as skipped when asked for, and
  /// their state is adopted either way). Call it at the end of a test whose effects finish on
  /// their own but asynchronously. A non-exhaustive test waits as an exhaustive one does, so
  /// that what it checks next (a database, a file) is what the effects left. An effect that
  /// has not finished when ``timeout`` has passed fails the test, with the Composable
  /// Architecture's message, and is cancelled.
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
    let outcome = await waitForTrackedEffects()
    await settle()
    settleReceivedActions(
      exhaustiveIssue: Self.unassertedActionsMessage(receivedActions.map(\.action)),
      location: location
    )
    reportUnfinishedEffects(after: outcome, at: location)
  }

  /// Waits until no effect the test tracks is running, for at most ``timeout``.
  func waitForTrackedEffects() async -> Progress.Outcome {
    await progress.wait(until: { root.runtime.trackedRunningCount == 0 }, atMost: timeout)
  }

  /// Discards the actions received from effects that the test has not asserted.
  ///
  /// A non-exhaustive test first waits, as ``finish(fileID:filePath:line:column:)`` does, for
  /// the effects in flight: an integration test that skips what it received goes on to check
  /// what those effects did.
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
    if exhaustivity != .on {
      reportUnfinishedEffects(after: await waitForTrackedEffects(), at: location)
    }
    await settle()
    guard let last = receivedActions.last else {
      if strict {
        location.reportIssue("There were no received actions to skip.")
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
