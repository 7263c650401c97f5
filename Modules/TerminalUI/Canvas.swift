/// A grid of styled cells that a view draws into: what one frame of the screen shows.
///
/// Views are pure functions of state to a canvas, so they can be tested by comparing
/// ``plainText`` with a snapshot, and ``frameUpdate(from:to:colors:)`` turns two consecutive
/// canvases into the few escape sequences that update the terminal.
///
/// ```swift
/// var canvas = Canvas(size: Size(width: 40, height: 10))
/// canvas.box(canvas.bounds, title: "Standups")
/// canvas.text("Design", at: Point(column: 2, row: 2), style: Style.plain.bold())
/// print(canvas.plainText)
/// ```
///
/// Drawing never traps: anything outside the canvas, or outside the clip rectangle a method
/// is given, is simply not drawn. A wide character takes two cells (see ``Cell``), and
/// overwriting either half of one blanks the other half, as a terminal does.
public struct Canvas: Hashable, Sendable {
  /// The number of columns and rows; a negative size given to ``init(size:)`` becomes 0.
  public let size: Size
  /// The cells, row by row.
  private var cells: [Cell]

  /// Creates a canvas filled with plain spaces.
  ///
  /// - Parameter size: The number of columns and rows, usually the terminal's window size.
  public init(size: Size) {
    self.size = Size(width: max(size.width, 0), height: max(size.height, 0))
    self.cells = Array(repeating: .blank, count: self.size.width * self.size.height)
  }

  /// The whole canvas, from (0, 0).
  public var bounds: Rect {
    Rect(origin: Point(column: 0, row: 0), size: size)
  }

  /// The cell at a position, or a plain space for a position outside the canvas.
  ///
  /// - Parameters:
  ///   - row: The row, from 0 at the top.
  ///   - column: The column, from 0 at the left.
  public subscript(row row: Int, column column: Int) -> Cell {
    guard bounds.contains(Point(column: column, row: row)) else { return .blank }
    return cells[row * size.width + column]
  }

  /// Draws text on one row, clipped to a rectangle and truncated with "…" to the room left in
  /// it.
  ///
  /// Nothing is written outside `clip`: a row outside it draws nothing, characters left of it
  /// are skipped, and text wider than the columns from `point` to the clip's right edge is cut
  /// with ``Swift/Sequence/truncated(toWidth:)``, so the "…" shows that something is
  /// missing. A wide character that would straddle the clip's left edge is not drawn.
  /// Characters of width 0 (control characters such as newlines, and lone combining marks) are
  /// not drawn: draw one line per call, using ``Swift/Sequence/wrapped(toWidth:)`` for
  /// longer text.
  ///
  /// > Important: A wide character drawn *before* and straddling the clip's edge loses its
  /// > half outside the clip when the half inside is drawn over, as on a real terminal.
  ///
  /// ```swift
  /// let line = list.row(index)
  /// let used = canvas.text(standup.title, at: line.origin, style: title, clip: line)
  /// let after = Point(column: line.minColumn + used, row: line.minRow)
  /// canvas.text(" · 5 min", at: after, style: detail, clip: line)
  /// ```
  ///
  /// - Parameters:
  ///   - string: The text.
  ///   - point: Where the first character goes.
  ///   - style: The style of the text.
  ///   - clip: The rectangle to stay inside; the whole canvas when `nil`.
  /// - Returns: The number of columns drawn.
  @discardableResult
  public mutating func text(
    _ string: some StringProtocol,
    at point: Point,
    style: Style = .plain,
    clip: Rect? = nil
  ) -> Int {
    let clip = (clip ?? bounds).intersection(bounds)
    guard (clip.minRow..<clip.maxRow).contains(point.row) else { return 0 }
    var column = point.column
    var drawn = 0
    for character in string.truncated(toWidth: clip.maxColumn - point.column) {
      let width = character.displayWidth
      guard width > 0 else { continue }
      if column >= clip.minColumn {
        put(String(character), width: width, style: style, row: point.row, column: column)
        drawn += width
      }
      column += width
    }
    return drawn
  }

  /// Fills a rectangle with a character in a style: backgrounds, highlighted rows, and
  /// clearing the area behind an overlay.
  ///
  /// A wide character fills pairs of columns; an odd column left over gets a space. A
  /// character of width 0 fills with spaces.
  ///
  /// ```swift
  /// canvas.fill(dialog, style: Style.plain.background(RGB(red: 40, green: 40, blue: 40)))
  /// ```
  ///
  /// - Parameters:
  ///   - rect: The area, clipped to the canvas.
  ///   - style: The style of every filled cell.
  ///   - character: The character to fill with; a space by default.
  public mutating func fill(_ rect: Rect, style: Style, with character: Character = " ") {
    let area = rect.intersection(bounds)
    let (text, width) =
      character.displayWidth == 0 ? (" ", 1) : (String(character), character.displayWidth)
    for row in area.minRow..<area.maxRow {
      var column = area.minColumn
      while column + width <= area.maxColumn {
        put(text, width: width, style: style, row: row, column: column)
        column += width
      }
      if column < area.maxColumn {
        put(" ", width: 1, style: style, row: row, column: column)
      }
    }
  }

  /// The canvas as plain text, for snapshot tests and for dumping a screen in scripts.
  ///
  /// One line per row, joined with "\n" (no newline after the last), without styles or
  /// escape codes; trailing spaces are trimmed and a wide character appears once.
  ///
  /// ```swift
  /// #expect(canvas.plainText == """
  ///   ┌─ Standups ─┐
  ///   └────────────┘
  ///   """)
  /// ```
  public var plainText: String {
    (0..<size.height).map { row in
      var line = ""
      for cell in cells[row * size.width..<(row + 1) * size.width] {
        line += cell.text
      }
      while line.last == " " {
        line.removeLast()
      }
      return line
    }
    .joined(separator: "\n")
  }

  /// Writes a character of width 1 or 2 whose cells are all inside the canvas.
  private mutating func put(_ text: String, width: Int, style: Style, row: Int, column: Int) {
    let rowStart = row * size.width
    let end = column + width
    // NB: half a wide character cannot be shown, so the other half of one that is partly
    // overwritten becomes a space, even outside the clip: that is what the terminal shows.
    if column > 0, cells[rowStart + column].isContinuation {
      cells[rowStart + column - 1].text = " "
    }
    if end < size.width, cells[rowStart + end].isContinuation {
      cells[rowStart + end].text = " "
    }
    cells[rowStart + column] = Cell(text: text, style: style)
    if width == 2 {
      cells[rowStart + column + 1] = Cell(text: "", style: style)
    }
  }
}
