import Persistence
import TerminalUI

// The frame around the screens: the breadcrumb, the legend of keys, the help over the screen,
// and where each of them and the sheet go at a size.

extension AppView {
  static func drawBreadcrumb(
    _ state: PersistedApp.State,
    format: TerminalFormat,
    in row: Rect,
    on canvas: inout Canvas
  ) {
    var crumbs = breadcrumb(state, format: format, width: row.size.width)
    let separator = " › "
    func width(_ crumbs: [String]) -> Int {
      crumbs.reduce(0) { $0 + $1.displayWidth } + separator.displayWidth * (crumbs.count - 1) + 1
    }
    // NB: The screens nearest the top matter most; the bottom of the stack gives way first.
    while crumbs.count > 2, width(crumbs) > row.size.width {
      crumbs.remove(at: crumbs[0] == "…" ? 1 : 0)
      if crumbs[0] != "…" { crumbs.insert("…", at: 0) }
    }
    var column = row.minColumn + 1
    for (index, crumb) in crumbs.enumerated() {
      let isLast = index == crumbs.count - 1
      if index > 0 {
        column += canvas.text(
          separator, at: Point(column: column, row: row.minRow), style: Palette.label, clip: row)
      }
      let room = max(row.maxColumn - column, 0)
      column += canvas.text(
        crumb.truncated(toWidth: room), at: Point(column: column, row: row.minRow),
        style: isLast ? Palette.title : Palette.label, clip: row)
    }
  }

  static func drawLegend(_ keys: [KeyHelp], in row: Rect, on canvas: inout Canvas) {
    guard let help = keys.last else { return }
    let entries = keys.dropLast()
    let helpWidth = help.keys.displayWidth + 1 + help.action.displayWidth
    var column = row.minColumn + 1
    for entry in entries {
      let entryWidth = entry.keys.displayWidth + 1 + entry.action.displayWidth
      guard column + entryWidth + 2 + helpWidth <= row.maxColumn else { break }
      column =
        drawKey(entry, at: Point(column: column, row: row.minRow), clip: row, on: &canvas) + 2
    }
    drawKey(help, at: Point(column: column, row: row.minRow), clip: row, on: &canvas)
  }

  @discardableResult
  static func drawKey(
    _ entry: KeyHelp,
    at point: Point,
    clip: Rect,
    on canvas: inout Canvas
  ) -> Int {
    let column = point.column + canvas.text(entry.keys, at: point, style: Palette.key, clip: clip)
    return column
      + canvas.text(
        " " + entry.action, at: Point(column: column, row: point.row), style: Palette.label,
        clip: clip)
  }

  static func drawHelp(_ keys: [KeyHelp], over screen: Rect, on canvas: inout Canvas) {
    let keyWidth = keys.map(\.keys.displayWidth).max() ?? 0
    let actionWidth = keys.map(\.action.displayWidth).max() ?? 0
    let box = overlayBox(
      Size(width: keyWidth + actionWidth + 7, height: keys.count + 4), over: screen)
    canvas.fill(box.inset(by: -1).intersection(screen), style: .plain)
    canvas.box(box, style: Palette.frame, title: "Keys")
    let body = box.inset(top: 1, left: 2, bottom: 1, right: 2)
    let shown = body.size.height - 1
    for (line, entry) in keys.prefix(max(shown, 0)).enumerated() {
      let row = body.row(line)
      canvas.text(entry.keys, at: row.origin, style: Palette.key, clip: row)
      canvas.text(
        entry.action, at: Point(column: row.minColumn + keyWidth + 2, row: row.minRow),
        style: .plain, clip: row)
    }
    if shown >= 0 {
      let row = body.row(body.size.height - 1)
      canvas.text(
        "Esc closes this; other keys act too.", at: row.origin, style: Palette.label, clip: row)
    }
  }

  /// Where a box of `size` goes over `screen`: centred, or the whole width when the screen is
  /// too narrow to leave a useful margin.
  static func overlayBox(_ size: Size, over screen: Rect) -> Rect {
    let width = screen.size.width < 50 ? screen.size.width : min(size.width, screen.size.width)
    return screen.centered(Size(width: width, height: min(size.height, screen.size.height)))
  }

  /// Where the parts of the app go on a terminal of a given size.
  struct Layout {
    var screen: Rect
    /// Where alerts and the key list go: everywhere but the status area and the legend, which
    /// shows their keys.
    var overlay: Rect
    var breadcrumb: Rect
    var content: Rect
    var status: Rect?
    /// What the status area shows, a row each.
    var statusLines: [(String, Style)]
    var footer: Rect
    var sheet: Rect

    init(_ state: PersistedApp.State, _ view: AppViewState, size: Size) {
      screen = Rect(column: 0, row: 0, width: size.width, height: size.height)
      let height = size.height
      breadcrumb = screen.row(0)
      footer = screen.row(max(height - 1, 0))
      statusLines = AppView.statusLines(
        state, view, width: max(size.width - 2, 1), rows: AppView.mostStatusRows(height: height))
      let statusRows = statusLines.count
      // NB: Alerts leave the status area alone: a notice that names a file stays readable
      // under any alert.
      overlay = Rect(
        column: 0, row: 0, width: size.width, height: max(height - 1 - statusRows, 0))
      status =
        statusRows > 0
        ? Rect(column: 0, row: height - 1 - statusRows, width: size.width, height: statusRows)
        : nil
      let bottom = max(height - 1 - statusRows, 1)
      content = Rect(column: 0, row: min(1, height), width: size.width, height: max(bottom - 1, 0))
      let margin = size.width >= 50 ? 2 : 0
      sheet = Rect(
        column: margin, row: min(1, height), width: max(size.width - 2 * margin, 0),
        height: max(bottom - 1, 0))
    }
  }
}
