public import IssueReporting
import Synchronization

/// Collects the issues reported while it is the reporter, instead of failing the test with
/// them, so that a test can count them and read what they said.
///
/// A property test or a soak uses it to check that an issue is reported exactly when one
/// should be; an ordinary test asserts a single failure with `withKnownIssue` instead.
///
/// ```swift
/// let issues = IssueCollector()
/// withIssueReporters([issues]) {
///   store.send(.path(.popFrom(id: missing)))
/// }
/// #expect(issues.count == 1)
/// ```
public final class IssueCollector: IssueReporter {
  private let collected = Mutex<[String]>([])

  /// Creates an empty collector.
  public init() {}

  /// The messages of the issues reported so far, oldest first.
  public var messages: [String] {
    collected.withLock { $0 }
  }

  /// The number of issues reported so far.
  public var count: Int {
    collected.withLock { $0.count }
  }

  /// Records an issue.
  public func reportIssue(
    _ message: @autoclosure () -> String?,
    severity: IssueSeverity,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    collected.withLock { $0.append(message) }
  }

  /// Records an expected issue (one reported inside `withExpectedIssue`) like any other.
  public func expectIssue(
    _ message: @autoclosure () -> String?,
    fileID: StaticString,
    filePath: StaticString,
    line: UInt,
    column: UInt
  ) {
    let message = message() ?? ""
    collected.withLock { $0.append(message) }
  }
}
