import SnapshotTesting
import TerminalUI

extension Snapshotting where Value == Canvas, Format == String {
  /// A frame as text: every row padded to the frame's width between two `|`, so that the
  /// snapshot shows exactly what is where, then the styled runs of each row, so that it also
  /// shows what is selected, focused, dimmed or coloured.
  static var frame: Self {
    Snapshotting<String, String>.lines.pullback(\.snapshotText)
  }
}

extension Canvas {
  /// The text of ``Snapshotting/frame``.
  var snapshotText: String {
    let lines = plainText.split(separator: "\n", omittingEmptySubsequences: false)
    var text = ""
    for row in 0..<size.height {
      let line = row < lines.count ? String(lines[row]) : ""
      text += "|" + line.padded(toWidth: size.width) + "|\n"
    }
    text += "\n"
    for row in 0..<size.height {
      let runs = styledRuns(row: row)
      guard !runs.isEmpty else { continue }
      text += "row \(row): " + runs.joined(separator: "; ") + "\n"
    }
    return text
  }

  /// The runs of cells in one row that share a style other than plain, as
  /// `first–last description`.
  private func styledRuns(row: Int) -> [String] {
    var runs: [String] = []
    var column = 0
    while column < size.width {
      let style = self[row: row, column: column].style
      var end = column + 1
      while end < size.width, self[row: row, column: end].style == style {
        end += 1
      }
      if style != .plain {
        runs.append("\(column)–\(end - 1) \(style.snapshotDescription)")
      }
      column = end
    }
    return runs
  }
}

extension Style {
  /// The style in words, as in `bold reversed fg #F25C54`.
  var snapshotDescription: String {
    var words: [String] = []
    if isBold { words.append("bold") }
    if isDim { words.append("dim") }
    if isReversed { words.append("reversed") }
    if isUnderlined { words.append("underlined") }
    if let foreground { words.append("fg \(foreground.hex)") }
    if let background { words.append("bg \(background.hex)") }
    return words.joined(separator: " ")
  }
}

extension RGB {
  fileprivate var hex: String {
    "#"
      + [red, green, blue].map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
      }.joined()
  }
}
