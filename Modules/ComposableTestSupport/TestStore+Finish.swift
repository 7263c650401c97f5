import Composable
import ConcurrencyExtras
import IssueReporting

extension TestStore {
  /// Waits for every running effect to finish, and reports effects still running after
  /// `timeout`.
  ///
  /// Call it at the end of a test whose effects finish on their own but asynchronously.
  ///
  /// ```swift
  /// await store.send(.saveButtonTapped)
  /// await store.receive(\.saved)
  /// await store.finish()
  /// ```
  ///
  /// - Parameter timeout: How long to wait; ``timeout`` by default.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let timeout = timeout ?? self.timeout
    let finished = await progress.wait(
      until: { root.runtime.runningCount == 0 },
      timeout: timeout
    )
    guard !finished, exhaustivity == .on else { return }
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    location.reportIssue(
      """
      Expected effects to finish, but \(root.runtime.runningCount) still running after \
      \(timeout). Effects started by:

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
  /// - Parameter strict: Whether to report an issue when there is nothing to skip.
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
    expectedState = last.state
    receivedActions.removeAll()
  }

  /// Cancels every running effect and waits for them to wind down.
  ///
  /// ```swift
  /// await store.send(.onTask)  // starts a long-living effect
  /// await store.skipInFlightEffects()
  /// ```
  ///
  /// - Parameter strict: Whether to report an issue when no effect is running.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard root.runtime.runningCount > 0 else {
      if strict {
        location.reportIssue("There were no in-flight effects to skip.")
      }
      return
    }
    root.runtime.cancelAll()
    let finished = await progress.wait(
      until: { root.runtime.runningCount == 0 },
      timeout: timeout
    )
    if !finished {
      location.reportIssue(
        """
        \(root.runtime.runningCount) cancelled effects are still running after \(timeout). \
        An effect that ignores cancellation cannot be skipped.
        """
      )
    }
  }
}
