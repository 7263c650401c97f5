import Foundation
import IdentifiedCollections
import Models
import StandupDetail
import TerminalUI

/// One standup: its length, theme and attendees, then its past meetings, newest first, each with
/// its date and the start of its transcript.
enum DetailScreen {
  static func keys(_ state: StandupDetail.State) -> [KeyHelp] {
    let hasMeetings = !state.standup.meetings.isEmpty
    return (hasMeetings ? [KeyHelp("⏎", "open")] : [])
      + [KeyHelp("s", "start"), KeyHelp("e", "edit"), KeyHelp("esc", "back")]
      + (hasMeetings ? [KeyHelp("↑↓", "select"), KeyHelp("d", "delete meeting")] : [])
      + [KeyHelp("D", "delete standup"), KeyHelp("q", "quit")]
  }

  static func render(
    _ state: StandupDetail.State,
    _ view: ScreenViewState,
    team: String? = nil,
    in region: Rect,
    format: TerminalFormat,
    on canvas: inout Canvas
  ) {
    let layout = Layout(state, in: region)
    let standup = state.standup
    let summary = layout.summary.inset(left: 1, right: 1)
    var column = summary.minColumn
    column += canvas.text("Length ", at: summary.origin, style: Palette.label, clip: summary)
    column += canvas.text(
      format.length(standup.duration) + "   ",
      at: Point(column: column, row: summary.minRow),
      style: .plain,
      clip: summary
    )
    column += canvas.text(
      "Theme ", at: Point(column: column, row: summary.minRow), style: Palette.label, clip: summary)
    column += canvas.text(
      "  ", at: Point(column: column, row: summary.minRow), style: Palette.swatch(standup.theme),
      clip: summary)
    column += canvas.text(
      " " + standup.theme.name + "   ", at: Point(column: column, row: summary.minRow),
      style: .plain, clip: summary)
    if let team {
      // NB: A shared standup names its team: a machine may be in several.
      column += canvas.text(
        "Team ", at: Point(column: column, row: summary.minRow), style: Palette.label,
        clip: summary)
      canvas.text(
        team, at: Point(column: column, row: summary.minRow), style: .plain, clip: summary)
    }

    for (offset, line) in layout.attendeeLines.enumerated() {
      let row = summary.row(1 + offset)
      if offset == 0 {
        canvas.text("Attendees", at: row.origin, style: Palette.label, clip: row)
      }
      canvas.text(
        line, at: Point(column: row.minColumn + Layout.labelWidth, row: row.minRow), style: .plain,
        clip: row)
    }

    guard let heading = layout.heading else { return }
    if standup.meetings.isEmpty {
      canvas.text(
        "No meetings yet. Press s to start one.", at: heading.inset(left: 1).origin,
        style: Palette.label, clip: heading)
      return
    }
    canvas.text(
      "Past meetings (\(standup.meetings.count))",
      at: heading.inset(left: 1).origin, style: Palette.title, clip: heading)
    let meetings = standup.meetings
    let selected = view.selectedRow(count: meetings.count)
    for (line, index) in view.window(count: meetings.count, height: layout.meetings.size.height)
      .enumerated()
    {
      let row = layout.meetings.row(line)
      let isSelected = index == selected
      canvas.fill(row, style: isSelected ? Palette.selected : .plain)
      let date = format.date(meetings[index].date)
      let column =
        row.minColumn + 1
        + canvas.text(
          date, at: Point(column: row.minColumn + 1, row: row.minRow),
          style: isSelected ? Palette.selected.bold() : Palette.title, clip: row)
      let room = max(row.maxColumn - column - 3, 0)
      let preview = transcriptPreview(meetings[index].transcript, width: room)
      canvas.text(
        preview.truncated(toWidth: room),
        at: Point(column: column + 2, row: row.minRow),
        style: isSelected ? Palette.selected : (preview == noTranscript ? Palette.label : .plain),
        clip: row)
    }
  }

  static func handle(
    _ key: Key,
    _ state: StandupDetail.State,
    _ view: inout ScreenViewState,
    in region: Rect
  ) -> StandupDetail.Action? {
    let meetings = state.standup.meetings
    let height = Layout(state, in: region).meetings.size.height
    if view.moveSelection(for: key, count: meetings.count, height: height) {
      return nil
    }
    let selected = view.selectedRow(count: meetings.count)
    switch key {
    case .character("s"):
      return .startMeetingButtonTapped
    case .character("e"):
      return .editButtonTapped
    case .enter, .right, .character("l"):
      return selected.map { .meetingTapped(id: meetings[$0].id) }
    case .character("d"), .delete:
      return selected.map { .deleteMeetings(atOffsets: IndexSet(integer: $0)) }
    case .character("D"):
      return .deleteButtonTapped
    default:
      return nil
    }
  }

  static let noTranscript = "No transcript"

  /// The start of a transcript on one line, its spaces and line breaks collapsed: enough of it
  /// to fill `width` columns and show that there is more.
  static func transcriptPreview(_ transcript: String, width: Int) -> String {
    var preview = ""
    var length = 0
    var isAfterSpace = false
    // NB: Stops once the row is full, so that a transcript costs the row, however long it is.
    for character in transcript {
      guard length <= width else { break }
      guard !character.isWhitespace else {
        isAfterSpace = length > 0
        continue
      }
      if isAfterSpace {
        preview.append(" ")
        length += 1
        isAfterSpace = false
      }
      preview.append(character)
      length += 1
    }
    return preview.isEmpty ? noTranscript : preview
  }

  /// Where the parts of the screen go: the summary of the standup, then the heading and rows of
  /// its meetings.
  struct Layout {
    static let labelWidth = 11

    var summary: Rect
    var attendeeLines: [String]
    var heading: Rect?
    var meetings: Rect

    init(_ state: StandupDetail.State, in region: Rect) {
      let width = max(region.size.width - 2 - Self.labelWidth, 1)
      let maximumLines = region.size.height >= 16 ? 3 : 2
      attendeeLines = Self.attendeeLines(
        state.standup.attendees, width: width, maximumLines: maximumLines)
      let (top, rest) = region.divided(atRow: 1 + attendeeLines.count)
      summary = top
      let list = rest.inset(top: 1)
      guard list.size.height > 0 else {
        heading = nil
        meetings = Rect(column: list.minColumn, row: list.minRow, width: list.size.width, height: 0)
        return
      }
      let (headingRow, rows) = list.divided(atRow: 1)
      heading = headingRow
      meetings = rows
    }

    /// The attendees' names, "Unnamed" for a blank one, wrapped to `width` on at most
    /// `maximumLines` lines, the last ending in "…" when more did not fit.
    ///
    /// NB: The names are joined as they are read, and read only as far as the lines reach:
    /// there can be any number of them, each of any length.
    static func attendeeLines(
      _ attendees: IdentifiedArrayOf<Attendee>,
      width: Int,
      maximumLines: Int
    ) -> [String] {
      let names: JoinedSequence = attendees.lazy
        .map { $0.name.isEmpty ? "Unnamed" : $0.name }
        .joined(separator: ", ")
      var lines = names.wrapped(toWidth: width, maxLines: maximumLines + 1)
      if lines.count > maximumLines {
        let kept = lines[maximumLines - 1] + " " + lines[maximumLines]
        lines = Array(lines.prefix(maximumLines - 1)) + [kept.truncated(toWidth: width)]
      }
      return lines
    }
  }
}
