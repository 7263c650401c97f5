extension StringProtocol {
  /// The number of terminal columns the text takes: the sum of its characters'
  /// ``Swift/Character/displayWidth``.
  ///
  /// Layout must measure in columns, not characters: "中文" is two characters but four
  /// columns, and "e\u{301}" is two scalars but one column.
  ///
  /// ```swift
  /// "Standups".displayWidth  // 8
  /// "会议".displayWidth  // 4
  /// ```
  public var displayWidth: Int {
    reduce(0) { $0 + $1.displayWidth }
  }

  /// The text cut to fit a number of columns, ending with "…" when something was cut.
  ///
  /// Cutting happens between characters (grapheme clusters), so an accent is never separated
  /// from its letter nor a flag split in half; when a wide character does not fit before the
  /// "…", the result is one column narrower than `width`.
  ///
  /// ```swift
  /// "Engineering".truncated(toWidth: 6)  // "Engin…"
  /// "中文字".truncated(toWidth: 4)  // "中…"
  /// ```
  ///
  /// - Parameter width: The number of columns available.
  /// - Returns: The text unchanged if it fits; otherwise a prefix and "…", never wider than
  ///   `width` (empty when `width` is less than 1).
  public func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    // NB: One pass that stops at the first character past `width`: a long transcript shown in
    // a row of 80 columns costs 80 characters, not its whole length.
    var prefixEnd = startIndex
    var total = 0
    var index = startIndex
    while index < endIndex {
      total += self[index].displayWidth
      guard total <= width else { return String(self[..<prefixEnd]) + "…" }
      index = self.index(after: index)
      if total < width {
        prefixEnd = index
      }
    }
    return String(self)
  }

  /// The text broken into lines that fit a number of columns, breaking at spaces.
  ///
  /// Each newline in the text starts a new line, so paragraphs and blank lines survive. A word
  /// longer than a line is broken between characters. Spaces where a line is broken are
  /// dropped; spaces inside a line, including indentation at the start of a paragraph, are
  /// kept.
  ///
  /// ```swift
  /// "Daily standup for the iOS team".wrapped(toWidth: 12)
  /// // ["Daily", "standup for", "the iOS team"]
  /// ```
  ///
  /// > Important: A line is never wider than `width`, except when a single character is wider
  /// > (a wide character at width 1): it gets a line of its own rather than being lost.
  ///
  /// - Parameter width: The number of columns available.
  /// - Returns: The lines, at least one (`[""]` for empty text, or when `width` is less than 1
  ///   and nothing fits).
  public func wrapped(toWidth width: Int) -> [String] {
    guard width > 0 else { return [""] }
    return split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).flatMap {
      LineBreaker(width: width).lines(of: $0)
    }
  }

  /// The text made exactly a number of columns wide: padded with spaces, or truncated with
  /// "…" (and then padded, if a wide character left a column over).
  ///
  /// Used for table columns and for lines that must overwrite everything behind them.
  ///
  /// ```swift
  /// "Design".padded(toWidth: 8)  // "Design  "
  /// ```
  ///
  /// - Parameter width: The number of columns.
  /// - Returns: Text exactly `width` columns wide (empty when `width` is less than 1).
  public func padded(toWidth width: Int) -> String {
    let fitted = truncated(toWidth: width)
    return fitted + String(repeating: " ", count: Swift.max(width - fitted.displayWidth, 0))
  }
}

/// Greedy word wrapping of one paragraph (text without newlines).
private struct LineBreaker {
  let width: Int
  var lines: [String] = []
  var line = ""
  var lineWidth = 0

  init(width: Int) {
    self.width = width
  }

  consuming func lines(of paragraph: some StringProtocol) -> [String] {
    var spaces = 0
    for (index, word) in paragraph.split(separator: " ", omittingEmptySubsequences: false)
      .enumerated()
    {
      // NB: one space separates consecutive pieces; an empty piece is one more space.
      if index > 0 {
        spaces += 1
      }
      guard !word.isEmpty else { continue }
      place(word, afterSpaces: spaces)
      spaces = 0
    }
    lines.append(line)
    return lines
  }

  private mutating func place(_ word: some StringProtocol, afterSpaces spaces: Int) {
    let wordWidth = word.displayWidth
    if lineWidth + spaces + wordWidth <= width {
      line += String(repeating: " ", count: spaces) + word
      lineWidth += spaces + wordWidth
      return
    }
    if !line.isEmpty {
      breakLine()
    }
    for character in word {
      let characterWidth = character.displayWidth
      if lineWidth + characterWidth > width, !line.isEmpty {
        breakLine()
      }
      line.append(character)
      lineWidth += characterWidth
    }
  }

  private mutating func breakLine() {
    lines.append(line)
    line = ""
    lineWidth = 0
  }
}
