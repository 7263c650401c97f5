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
    let layout = Layout(state, in: region, wrapped: view.wrappedTranscript)
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
    let rows = layout.transcript.rows
    guard text.size.height > 0 else { return }
    if rows.isEmpty {
      canvas.text("Nothing was transcribed.", at: text.origin, style: Palette.label, clip: text)
      return
    }
    let first = min(view.scroll, max(rows.count - text.size.height, 0))
    for (offset, line) in rows.dropFirst(first).prefix(text.size.height).enumerated() {
      canvas.text(line, at: text.row(offset).origin, style: .plain, clip: text)
    }
    let last = min(first + text.size.height, rows.count)
    let position = "\(first + 1)–\(last) of \(rows.count)"
    // NB: Shown only beside the date, never over it.
    if rows.count > text.size.height,
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
    let layout = Layout(state, in: region, wrapped: view.wrappedTranscript)
    view.wrappedTranscript = layout.transcript
    let lineCount = layout.transcript.rows.count
    if view.scrollText(for: key, lineCount: lineCount, height: layout.text.size.height) {
      return nil
    }
    switch key {
    case .character("d"), .delete:
      return .deleteButtonTapped
    default:
      return nil
    }
  }

  /// The transcript wrapped to fit `region` as the screen shows it, reusing `wrapped` when it
  /// is that.
  static func wrappedTranscript(
    _ state: MeetingFeature.State,
    in region: Rect,
    wrapped: WrappedTranscript?
  ) -> WrappedTranscript {
    Layout(state, in: region, wrapped: wrapped).transcript
  }

  /// Where the parts of the screen go, and the transcript wrapped to the screen's width.
  struct Layout {
    var header: Rect
    var attendeeLines: [String]
    var text: Rect
    var transcript: WrappedTranscript

    /// - Parameter wrapped: The transcript as wrapped for an earlier frame, used again when it
    ///   is the same transcript at the same width.
    init(_ state: MeetingFeature.State, in region: Rect, wrapped: WrappedTranscript?) {
      let body = region.inset(left: 1, right: 1)
      let width = max(body.size.width - DetailScreen.Layout.labelWidth, 1)
      attendeeLines = DetailScreen.Layout.attendeeLines(
        state.standup.attendees, width: width, maximumLines: 2)
      let (top, rest) = body.divided(atRow: 1 + attendeeLines.count)
      header = top
      text = rest.inset(top: 1)
      transcript = WrappedTranscript(
        state.meeting.transcript, width: max(body.size.width, 1), reusing: wrapped)
    }
  }

  /// A past meeting's transcript wrapped to a width: the rows its screen scrolls through.
  ///
  /// NB: Wrapping reads the whole transcript, which can be megabytes long. The screen's view state
  /// keeps the rows (``AppViewState/prepare(for:size:)`` before each frame, and each key), so that
  /// a transcript is wrapped once for each width it is shown at, and a frame or a key then costs
  /// the rows shown. `LongTextTests` check that the rows kept are those of the transcript and width
  /// shown.
  struct WrappedTranscript: Equatable, Sendable {
    /// The transcript wrapped.
    let transcript: String
    /// The width it was wrapped to.
    let width: Int
    /// Its rows, without the blank ones at its end.
    let rows: [String]

    /// Wraps `transcript` to `width`, or reuses `earlier` when it is that transcript at that
    /// width.
    init(_ transcript: String, width: Int, reusing earlier: Self?) {
      // NB: The same transcript is the same string, which compares in constant time.
      if let earlier, earlier.width == width, earlier.transcript == transcript {
        self = earlier
        return
      }
      var rows = transcript.wrapped(toWidth: width)
      while rows.last?.isEmpty == true { rows.removeLast() }
      self.transcript = transcript
      self.width = width
      self.rows = rows
    }
  }
}
