import IssueReporting
import Synchronization
import Testing

/// Collects the messages of reported issues, on top of the usual reporters, so that a test can
/// assert what a failure said even when it was reported as a known issue.
final class IssueRecorder: IssueReporter {
  private let recorded = Mutex<[String]>([])

  var messages: [String] {
    recorded.withLock { $0 }
  }

  func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    recorded.withLock { $0.append(message) }
  }

  func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    recorded.withLock { $0.append(message) }
  }
}

extension Issue {
  /// Whether the issue's message contains every one of `fragments`.
  func says(_ fragments: String...) -> Bool {
    let message = comments.map(\.rawValue).joined(separator: "\n")
    return fragments.allSatisfy { message.contains($0) }
  }
}
