public import Composable
import IssueReporting

/// The effects started by one action sent to a ``TestStore``, and by the actions they send.
///
/// ```swift
/// let task = await store.send(.onTask)
/// await task.cancel()  // the screen went away
/// ```
public struct TestStoreTask: Hashable, Sendable {
  /// The underlying store task.
  public let rawValue: StoreTask
  let progress: Progress
  let timeout: Duration

  /// Cancels the effects and waits for them to wind down.
  public func cancel() async {
    rawValue.cancel()
    await rawValue.finish()
  }

  /// Waits for the effects to finish; reports them, and cancels them, when they have not
  /// finished once `timeout` has passed, or when the waiting task is cancelled first.
  ///
  /// ```swift
  /// await store.send(.saveButtonTapped).finish()
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long the effects may take: the test store's `timeout` unless given.
  ///   - fileID: The file of the call, which a reported failure points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  @MainActor
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let completion = Completion()
    let watcher = Task { [rawValue, progress] in
      await rawValue.group?.finish()
      completion.isComplete = true
      progress.signal()
    }
    let timeout = timeout ?? self.timeout
    let outcome = await progress.wait(until: { completion.isComplete }, atMost: timeout)
    guard outcome != .happened else { return }
    watcher.cancel()
    rawValue.cancel()
    CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column).reportIssue(
      outcome == .timedOut
        ? """
        Expected task to finish, but it is still in-flight after \(timeout).

        If this task delivers its action using a clock, make sure that you wait enough time for \
        it to perform its work. If you are using a test clock, advance it so that the effects \
        may complete, or consider using an immediate clock to immediately perform the effect \
        instead.
        """
        : "Expected the effects of this action to finish, but the test was cancelled first."
    )
  }

  /// Whether every effect has been cancelled.
  public var isCancelled: Bool {
    rawValue.isCancelled
  }

  /// Whether two handles cover the same effects.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.rawValue == rhs.rawValue
  }

  /// Hashes the effects the handle covers.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue)
  }
}

@MainActor
private final class Completion {
  var isComplete = false
}
