/// How the command line's messages write lists and text that came from a user or a file: a
/// message goes to a terminal, where a control character in a title or a script line would move
/// the cursor, ring the bell or clear the screen, and where a list longer than a screen scrolls
/// its start out of sight.
enum MessageText {
  /// The most entries of a list in a message: with the sentence before it and the count after
  /// it, a message fits a 24-line terminal.
  static let entriesInAScreenful = 20

  /// One indented line per entry, those past a screenful counted instead.
  ///
  /// ```swift
  /// MessageText.screenful(["\"Design\"", "\"Engineering\""])  // "  \"Design\"\n  \"Engineering\""
  /// ```
  static func screenful(_ entries: [String]) -> String {
    let shown = entries.prefix(entriesInAScreenful).map { "  " + $0 }
    let rest = entries.count - shown.count
    return (shown + (rest > 0 ? ["  and \(rest) more."] : [])).joined(separator: "\n")
  }

  /// Text in double quotes, as a Swift string literal writes it: control characters as escapes
  /// (`\t`, `\u{1B}`), and the quotes and backslashes inside escaped too.
  static func quoted(_ text: String) -> String {
    "\"" + escaped(text, quotes: true) + "\""
  }

  /// Text with its control characters written as escapes (`\t`, `\u{1B}`), and with `quotes`,
  /// its double quotes and backslashes too.
  static func escaped(_ text: String, quotes: Bool = false) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"" where quotes: result += "\\\""
      case "\\" where quotes: result += "\\\\"
      case "\t": result += "\\t"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case _ where scalar.properties.generalCategory == .control:
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
