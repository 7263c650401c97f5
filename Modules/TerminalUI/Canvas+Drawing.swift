extension Canvas {
  /// Draws a single-line border on the edge of a rectangle, with an optional title in the top
  /// edge.
  ///
  /// Only the border is drawn, so a box can frame content drawn before or after it; fill the
  /// rectangle first to clear what is behind an overlay. The title is truncated with "…" to
  /// fit between the corners, and left out when there is no room for a character of it.
  ///
  /// ```swift
  /// canvas.box(Rect(column: 0, row: 0, width: 14, height: 3), title: "Standups")
  /// // ┌─ Standups ─┐
  /// // │            │
  /// // └────────────┘
  /// ```
  ///
  /// - Parameters:
  ///   - rect: The rectangle whose outermost cells form the border; nothing is drawn if it is
  ///     narrower or shorter than 2 cells.
  ///   - style: The style of the border and title.
  ///   - title: Text for the top edge.
  public mutating func box(_ rect: Rect, style: Style = .plain, title: String? = nil) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let horizontal = String(repeating: "─", count: rect.width - 2)
    let bottom = rect.maxRow - 1
    text("┌" + horizontal + "┐", at: rect.origin, style: style, clip: rect)
    for row in rect.minRow + 1..<bottom {
      text("│", at: Point(column: rect.minColumn, row: row), style: style, clip: rect)
      text("│", at: Point(column: rect.maxColumn - 1, row: row), style: style, clip: rect)
    }
    let bottomLeft = Point(column: rect.minColumn, row: bottom)
    text("└" + horizontal + "┘", at: bottomLeft, style: style, clip: rect)

    // NB: "┌─ " before the title and " ─┐" after it leave width - 6 columns.
    let titleRoom = rect.width - 6
    if let title, !title.isEmpty, titleRoom >= 1 {
      let label = " " + title.truncated(toWidth: titleRoom) + " "
      let start = Point(column: rect.minColumn + 2, row: rect.minRow)
      text(label, at: start, style: style, clip: rect)
    }
  }

  /// Draws a one-row progress bar across the width of a rectangle, on its top row.
  ///
  /// The filled part is drawn with "█" in `filled`, the rest with "░" in `empty`, so the bar
  /// reads correctly without colour too. The fraction is clamped to `0...1` (a NaN counts as 0)
  /// and rounded down to whole cells, so the bar is full only when the fraction reaches 1.
  ///
  /// ```swift
  /// canvas.progressBar(bar, fraction: elapsed / duration, filled: accent, empty: .plain.dim())
  /// // ████████░░░░░░░░
  /// ```
  ///
  /// - Parameters:
  ///   - rect: The rectangle whose top row the bar fills.
  ///   - fraction: How much of the bar is filled, from 0 to 1.
  ///   - filled: The style of the filled part.
  ///   - empty: The style of the rest.
  public mutating func progressBar(_ rect: Rect, fraction: Double, filled: Style, empty: Style) {
    let row = rect.row(0)
    guard !row.isEmpty else { return }
    let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    let filledWidth = Int((clamped * Double(row.width)).rounded(.down))
    let (filledPart, emptyPart) = row.divided(atColumn: filledWidth)
    fill(filledPart, style: filled, with: "█")
    fill(emptyPart, style: empty, with: "░")
  }
}
