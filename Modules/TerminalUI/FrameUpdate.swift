/// The escape sequences that change what the terminal shows from one canvas to another.
///
/// Writing only what changed keeps output small (a ticking timer rewrites a few cells, not
/// the screen), which avoids flicker over slow connections:
///
/// ```swift
/// let next = render(state, size: size)
/// write(frameUpdate(from: shown, to: next, colors: colors))
/// shown = next
/// ```
///
/// - When `previous` is `nil` (nothing is known about the screen: the first frame, or after
///   a resize or anything else drew on it) or its size differs, the screen is cleared and
///   every row is written.
/// - Otherwise only the rows that differ are written, each from its first changed cell to its
///   last; a wide character is written whole, from its left half.
///
/// Styles are written only where they change along the way, colours as ``ColorSupport``
/// allows (24-bit, the nearest of the 256 palette colours, or none; attributes are always
/// written), and output that writes anything ends by resetting the style, so the next update
/// starts from the terminal's defaults. The cursor is left wherever the last cell was written.
///
/// - Parameters:
///   - previous: What the terminal shows now, or `nil` if unknown.
///   - next: What it should show.
///   - colors: How colours are written.
/// - Returns: The bytes to write; empty when nothing changed.
public func frameUpdate(from previous: Canvas?, to next: Canvas, colors: ColorSupport) -> String {
  var writer = FrameWriter(canvas: next, colors: colors)
  if let previous, previous.size == next.size {
    for row in 0..<next.size.height {
      if let columns = changedColumns(row: row, from: previous, to: next) {
        writer.write(row: row, columns: columns)
      }
    }
    guard !writer.output.isEmpty else { return "" }
  } else {
    writer.output = TerminalCommand.resetStyle.sequence + TerminalCommand.clearScreen.sequence
    for row in 0..<next.size.height {
      writer.write(row: row, columns: 0..<next.size.width)
    }
  }
  return writer.output + TerminalCommand.resetStyle.sequence
}

/// The columns of a row to rewrite: from the first changed cell to the last, or `nil` if the
/// row is unchanged.
private func changedColumns(row: Int, from previous: Canvas, to next: Canvas) -> Range<Int>? {
  let changed = (0..<next.size.width).filter {
    previous[row: row, column: $0] != next[row: row, column: $0]
  }
  // NB: the span never starts at the right half of a wide character: a canvas writes both
  // halves at once in one style, so a changed right half comes with its changed left half.
  guard let first = changed.first, let last = changed.last else { return nil }
  return first..<last + 1
}

/// Accumulates the output of one frame, remembering the style the terminal is drawing with.
private struct FrameWriter {
  let canvas: Canvas
  let colors: ColorSupport
  var output = ""
  /// The SGR parameters in effect: after a reset, "0".
  var pen = "0"
  /// The style of the last cell written, so that a run of cells in one style is compared
  /// cheaply; styles that differ only in colours may still share parameters (without colour).
  var penStyle = Style.plain

  init(canvas: Canvas, colors: ColorSupport) {
    self.canvas = canvas
    self.colors = colors
  }

  mutating func write(row: Int, columns: Range<Int>) {
    output += TerminalCommand.moveCursor(to: Point(column: columns.lowerBound, row: row)).sequence
    for column in columns {
      let cell = canvas[row: row, column: column]
      guard !cell.isContinuation else { continue }
      if cell.style != penStyle {
        let parameters = cell.style.selectGraphicRenditionParameters(colors: colors)
        if parameters != pen {
          output += "\u{1B}[\(parameters)m"
          pen = parameters
        }
        penStyle = cell.style
      }
      output += cell.text
    }
  }
}

extension Style {
  /// The parameters of the SGR sequence (`ESC [ … m`) that sets this style from any other:
  /// a reset (0), then the attributes and colours.
  func selectGraphicRenditionParameters(colors: ColorSupport) -> String {
    var parameters = ["0"]
    if isBold { parameters.append("1") }
    if isDim { parameters.append("2") }
    if isUnderlined { parameters.append("4") }
    if isReversed { parameters.append("7") }
    if let foreground { parameters += Self.color(foreground, base: 38, colors: colors) }
    if let background { parameters += Self.color(background, base: 48, colors: colors) }
    return parameters.joined(separator: ";")
  }

  private static func color(_ color: RGB, base: Int, colors: ColorSupport) -> [String] {
    switch colors {
    case .trueColor: ["\(base)", "2", "\(color.red)", "\(color.green)", "\(color.blue)"]
    case .palette256: ["\(base)", "5", "\(color.palette256Index)"]
    case .ansi16:
      // NB: 30–37 and 40–47 are the first eight; 90–97 and 100–107 the bright eight.
      color.ansi16Index < 8
        ? ["\(base - 8 + color.ansi16Index)"] : ["\(base + 52 + color.ansi16Index - 8)"]
    case .none: []
    }
  }
}
