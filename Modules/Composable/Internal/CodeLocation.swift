import IssueReporting

/// Where an operator was written, so that an issue it reports points at the caller's code.
package struct CodeLocation: Sendable {
  package let fileID: StaticString
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
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
