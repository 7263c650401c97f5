import Models
import RecordMeeting
import TerminalUI

/// The meeting in progress: time elapsed and left, a progress bar across the width, every
/// speaker marked done, now or to come, the transcript so far, and the line being typed.
///
/// Typing goes to the transcript, so the screen's own keys are ones typing never produces:
/// Ctrl-N for the next speaker, Ctrl-E or Esc to end the meeting.
enum RecordScreen {
  static let keys = [
    KeyHelp("⏎", "add line"), KeyHelp("^N", "next"), KeyHelp("^E", "end"),
    KeyHelp("esc", "end", isInLegend: false),
    KeyHelp("←→ ^W ^U", "edit the line", isInLegend: false),
  ]

  /// What a key on the recorder asks for.
  enum Outcome: Equatable {
    case send(RecordMeeting.Action)
    case submitDraft
  }

  static func render(
    _ state: RecordMeeting.State,
    _ view: ScreenViewState,
    in region: Rect,
    format: TerminalFormat,
    on canvas: inout Canvas
  ) {
    let body = region.inset(left: 1, right: 1)
    guard body.size.height > 0 else { return }
    let elapsed = format.clock(seconds: state.secondsElapsed)
    let remaining = format.clock(seconds: Int(state.durationRemaining.components.seconds))
    let top = body.row(0)
    // NB: The words go first when both clocks do not fit with them; then the elapsed time,
    // so that the two never run into each other.
    let (left, right) =
      [("Elapsed " + elapsed, "Remaining " + remaining), (elapsed, remaining + " left")]
      .first { $0.displayWidth + 1 + $1.displayWidth <= top.size.width }
      ?? ("", remaining + " left")
    canvas.text(left, at: top.origin, style: Palette.title, clip: top)
    canvas.text(
      right,
      at: Point(column: max(top.maxColumn - right.displayWidth, top.minColumn), row: top.minRow),
      style: Palette.title, clip: top)
    if body.size.height > 1 {
      canvas.progressBar(
        body.row(1), fraction: state.progress,
        filled: Style(foreground: RGB(state.standup.theme.mainColor)),
        empty: Palette.track)
    }

    let speakerLines = speakers(
      state, width: body.size.width, maxLines: max(body.size.height - 5, 1))
    let speakerRows = speakerLines.count
    for (offset, chips) in speakerLines.enumerated() where 2 + offset < body.size.height {
      let row = body.row(2 + offset)
      var column = row.minColumn
      for chip in chips {
        column += canvas.text(
          chip.text, at: Point(column: column, row: row.minRow), style: chip.style, clip: row)
        column += 1
      }
    }

    let transcriptTop = 2 + speakerRows
    guard transcriptTop + 2 <= body.size.height else { return }
    let rule = body.row(transcriptTop)
    canvas.text(
      "Transcript " + String(repeating: "─", count: max(rule.size.width - 11, 0)),
      at: rule.origin, style: Palette.label, clip: rule)

    let prompt = body.row(body.size.height - 1)
    drawDraft(view, in: prompt, on: &canvas)

    let lines = Rect(
      column: body.minColumn, row: rule.minRow + 1, width: body.size.width,
      height: prompt.minRow - rule.minRow - 1)
    let submitted = submittedTranscript(state.transcript, lineInProgress: view.draft)
    if submitted.isEmpty {
      canvas.text(
        "Type what is said, then ⏎.", at: lines.origin,
        style: Palette.label, clip: lines)
    }
    // NB: The latest lines are the ones that matter during a meeting: the bottom is shown.
    let shown = lastRows(of: submitted, width: lines.size.width, count: lines.size.height)
    for (offset, line) in shown.enumerated() {
      canvas.text(line, at: lines.row(offset).origin, style: .plain, clip: lines)
    }
  }

  /// The last `count` rows of `transcript` wrapped to `width` columns.
  ///
  /// NB: Lines are taken from the end until the rows are filled, and only from the end of the
  /// transcript that `count` rows can hold, so that a frame costs the same however long the
  /// transcript, or its last line, has grown. A line longer than that is wrapped from a point
  /// near its end rather than from its start, which is out of sight.
  static func lastRows(of transcript: Substring, width: Int, count: Int) -> [String] {
    var rows: [String] = []
    var rest = transcript.suffix((count + 1) * (width + 1))
    while rows.count < count {
      let newline = rest.utf8.lastIndex(of: UInt8(ascii: "\n"))
      let line = newline.map { rest[rest.utf8.index(after: $0)...] } ?? rest
      rows.insert(contentsOf: line.wrapped(toWidth: width), at: 0)
      guard let newline else { break }
      rest = rest[..<newline]
    }
    return Array(rows.suffix(count))
  }

  static func handle(_ key: Key, _ view: inout ScreenViewState) -> Outcome? {
    switch key {
    case .control("n"):
      return .send(.nextButtonTapped)
    case .control("e"), .escape:
      return .send(.endMeetingButtonTapped)
    case .enter:
      return view.draft.trimmingCharacters(in: .whitespaces).isEmpty ? nil : .submitDraft
    default:
      if let edited = view.editor.apply(key, to: view.draft) {
        view.draft = edited
      }
      return nil
    }
  }

  /// The transcript without the line being typed, which the prompt shows. The typed transcript
  /// streams that line as the transcript's last, the way a recogniser reports the words it is
  /// still hearing, so that a meeting ending at any moment keeps it.
  static func submittedTranscript(_ transcript: String, lineInProgress: String) -> Substring {
    let (all, line) = (transcript.utf8, lineInProgress.utf8)
    guard !line.isEmpty, all.count >= line.count else { return transcript[...] }
    // NB: Compared as bytes from the end, so that a frame costs the same however long the
    // transcript before the line is.
    let start = all.index(all.endIndex, offsetBy: -line.count)
    guard all[start...].elementsEqual(line) else { return transcript[...] }
    guard start > all.startIndex else { return "" }
    let newline = all.index(before: start)
    guard all[newline] == UInt8(ascii: "\n") else { return transcript[...] }
    return transcript[..<newline]
  }

  /// The speakers as chips, laid out in at most `maxLines` lines of `width` columns.
  ///
  /// NB: Each name is read only as far as a line reaches, and the speakers only as far as the
  /// lines do: a standup can have any number of attendees, each name of any length.
  static func speakers(_ state: RecordMeeting.State, width: Int, maxLines: Int) -> [[Chip]] {
    let attendees = state.standup.attendees
    let names =
      attendees.isEmpty
      ? AnySequence(["Everyone"])
      : AnySequence(attendees.lazy.map { $0.name.isEmpty ? "Unnamed" : $0.name })
    var lines: [[Chip]] = [[]]
    var used = 0
    for (index, name) in names.enumerated() {
      let mark: String
      let style: Style
      if index < state.speakerIndex {
        (mark, style) = ("✓ ", Palette.done)
      } else if index == state.speakerIndex {
        (mark, style) = ("▶ ", Palette.now)
      } else {
        (mark, style) = ("· ", .plain)
      }
      let chip: FlattenSequence = [mark, name].joined()
      let text = chip.truncated(toWidth: width)
      let chipWidth = text.displayWidth
      if used > 0, used + 1 + chipWidth > width {
        guard lines.count < maxLines else { break }
        lines.append([])
        used = 0
      }
      lines[lines.count - 1].append(Chip(text: text, style: style))
      used += (used > 0 ? 1 : 0) + chipWidth
    }
    return lines
  }

  /// A speaker's name with its mark.
  struct Chip: Equatable {
    var text: String
    var style: Style
  }

  private static func drawDraft(_ view: ScreenViewState, in row: Rect, on canvas: inout Canvas) {
    let column = row.minColumn + canvas.text("› ", at: row.origin, style: Palette.key, clip: row)
    let field = Rect(
      column: column, row: row.minRow, width: max(row.maxColumn - column, 0), height: 1)
    TextFieldView.draw(view.draft, editor: view.editor, isFocused: true, in: field, on: &canvas)
  }
}
