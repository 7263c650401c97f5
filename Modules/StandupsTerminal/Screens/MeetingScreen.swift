import MeetingFeature
import Models
import TerminalUI

/// A past meeting: its date, who attended, and the whole transcript, scrollable.
enum MeetingScreen {
  static let keys = [
    KeyHelp("↑↓", "scroll"), KeyHelp("esc", "back"), KeyHelp("d", "delete"),
    KeyHelp("PgUp PgDn", "page"), KeyHelp("q", "quit"),
  ]

  static func render(
    _ state: MeetingFeature.State,
    _ view: ScreenViewState,
    in region: Rect,
    format: TerminalFormat,
    on canvas: inout Canvas
  ) {
    let layout = Layout(state, in: region)
    let header = layout.header
    guard header.size.height > 0 else { return }
    let date = format.date(state.meeting.date)
    canvas.text(date, at: header.origin, style: Palette.title, clip: header)
    for (offset, line) in layout.attendeeLines.enumerated() where offset + 1 < header.size.height {
      let row = header.row(offset + 1)
      if offset == 0 {
        canvas.text("Attendees", at: row.origin, style: Palette.label, clip: row)
      }
      canvas.text(
        line, at: Point(column: row.minColumn + DetailScreen.Layout.labelWidth, row: row.minRow),
        style: .plain, clip: row)
    }

    let text = layout.text
    guard text.size.height > 0 else { return }
    if layout.lines.isEmpty {
      canvas.text("Nothing was transcribed.", at: text.origin, style: Palette.label, clip: text)
      return
    }
    let first = min(view.scroll, max(layout.lines.count - text.size.height, 0))
    for (offset, line) in layout.lines.dropFirst(first).prefix(text.size.height).enumerated() {
      canvas.text(line, at: text.row(offset).origin, style: .plain, clip: text)
    }
    let last = min(first + text.size.height, layout.lines.count)
    let position = "\(first + 1)–\(last) of \(layout.lines.count)"
    // NB: Shown only beside the date, never over it.
    if layout.lines.count > text.size.height,
      date.displayWidth + 1 + position.displayWidth <= header.size.width
    {
      canvas.text(
        position,
        at: Point(column: header.maxColumn - position.displayWidth, row: header.minRow),
        style: Palette.label, clip: header)
    }
  }

  static func handle(
    _ key: Key,
    _ state: MeetingFeature.State,
    _ view: inout ScreenViewState,
    in region: Rect
  ) -> MeetingFeature.Action? {
    let layout = Layout(state, in: region)
    if view.scrollText(for: key, lineCount: layout.lines.count, height: layout.text.size.height) {
      return nil
    }
    switch key {
    case .character("d"), .delete:
      return .deleteButtonTapped
    default:
      return nil
    }
  }

  /// Where the parts of the screen go, and the transcript wrapped to the screen's width.
  struct Layout {
    var header: Rect
    var attendeeLines: [String]
    var text: Rect
    var lines: [String]

    init(_ state: MeetingFeature.State, in region: Rect) {
      let body = region.inset(left: 1, right: 1)
      let names = state.standup.attendees.map { $0.name.isEmpty ? "Unnamed" : $0.name }
      let width = max(body.size.width - DetailScreen.Layout.labelWidth, 1)
      var attendeeLines = names.joined(separator: ", ").wrapped(toWidth: width)
      if attendeeLines.count > 2 {
        let rest = attendeeLines[1...].joined(separator: " ")
        attendeeLines = [attendeeLines[0], rest.truncated(toWidth: width)]
      }
      self.attendeeLines = attendeeLines
      let (top, rest) = body.divided(atRow: 1 + attendeeLines.count)
      header = top
      text = rest.inset(top: 1)
      lines = state.meeting.transcript
        .split(separator: "\n", omittingEmptySubsequences: false)
        .flatMap { $0.isEmpty ? [""] : $0.wrapped(toWidth: max(body.size.width, 1)) }
      while lines.last?.isEmpty == true { lines.removeLast() }
    }
  }
}
