import IssueReporting

/// Where an operator was written, so that an issue it reports points at the caller's code.
///
/// NB: The line and column are kept in 32 bits each, between the two file names, where they fill
/// the padding after the first: 49 bytes, where a word each for the line and the column took 64.
/// The box of every `Effect.run` holds one and has to stay within the allocator's fast size
/// classes (see `Effect.RunBox`).
@usableFromInline
package struct CodeLocation: Equatable, Sendable {
  package let fileID: StaticString
  private let storedLine: UInt32
  private let storedColumn: UInt32
  package let filePath: StaticString

  @usableFromInline
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.storedLine = UInt32(clamping: line)
    self.storedColumn = UInt32(clamping: column)
    self.filePath = filePath
  }

  /// The line, as `#line` gave it (a line past 2³² − 1 is kept as 2³² − 1).
  package var line: UInt {
    UInt(storedLine)
  }

  /// The column, as `#column` gave it (a column past 2³² − 1 is kept as 2³² − 1).
  package var column: UInt {
    UInt(storedColumn)
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
