import IssueReporting

/// Where an operator was written, so that an issue it reports points at the caller's code.
@usableFromInline
package struct CodeLocation: Equatable, Sendable {
  package let fileID: StaticString
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  @usableFromInline
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.line == rhs.line && lhs.column == rhs.column
      && "\(lhs.filePath)" == "\(rhs.filePath)"
  }

  package func reportIssue(_ message: String) {
    IssueReporting.reportIssue(
      message,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
