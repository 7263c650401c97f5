import AppFeature
import Foundation
import Models
import StandupForm
import TerminalUI

/// The add and edit form, shown in a sheet: title, length, theme and attendees.
///
/// Focus follows the form's own `focus`: when the form moves it (to a new attendee, to the
/// title of a standup that cannot be saved without one), the screen shows it there. The length
/// and theme rows, which the form does not focus, are remembered in the view state.
enum FormScreen {
  static func keys(confirm: String) -> [KeyHelp] {
    [
      KeyHelp("⏎", confirm), KeyHelp("esc", "cancel"), KeyHelp("tab", "next"),
      KeyHelp("←→", "change"), KeyHelp("^A", "add attendee"), KeyHelp("^D", "remove attendee"),
      KeyHelp("PgUp PgDn", "move attendee"), KeyHelp("↑↓ ⇧tab", "move"),
    ]
  }

  /// A row of the form.
  enum Row: Equatable {
    case title
    case length
    case theme
    case attendee(Attendee.ID)
  }

  /// What a key in the form asks for.
  enum Outcome: Equatable {
    case send(StandupForm.Action)
    case confirm
    case cancel
  }

  static let labelWidth = 11

  static func render(
    _ state: StandupForm.State,
    _ view: FormViewState,
    in region: Rect,
    on canvas: inout Canvas
  ) {
    let focused = focusedRow(state, view)
    let editor = effectiveEditor(state, view)
    let layout = Layout(state, view, in: region)

    func label(_ text: String, row: Rect, isFocused: Bool) {
      if isFocused {
        canvas.text("›", at: row.origin, style: Palette.key, clip: row)
      }
      canvas.text(
        text, at: Point(column: row.minColumn + 2, row: row.minRow),
        style: isFocused ? Palette.title : Palette.label, clip: row)
    }
    func field(of row: Rect) -> Rect {
      Rect(
        column: row.minColumn + labelWidth, row: row.minRow,
        width: max(row.size.width - labelWidth, 0), height: 1)
    }

    if let row = layout.title {
      let isFocused = focused == .title
      label("Title", row: row, isFocused: isFocused)
      var titleField = field(of: row)
      // NB: The limit is stated while the title is typed, where a key past it does nothing.
      let limit = " \(titleLength(state.standup.title))/\(StandupForm.State.titleLimit)"
      if isFocused, titleField.size.width >= limit.count + 10 {
        titleField = Rect(
          column: titleField.minColumn, row: titleField.minRow,
          width: titleField.size.width - limit.count, height: 1)
        canvas.text(
          limit, at: Point(column: titleField.maxColumn, row: row.minRow), style: Palette.label,
          clip: row)
      }
      TextFieldView.draw(
        state.standup.title, editor: editor, isFocused: isFocused,
        placeholder: "Needed to save", in: titleField, on: &canvas)
    }
    if let row = layout.length {
      let isFocused = focused == .length
      label("Length", row: row, isFocused: isFocused)
      let minutes = "\(state.durationInMinutes) min"
      // NB: An arrow shows only where a key moves the length, so none shows at a limit.
      let minutesNow = state.durationInMinutes
      let shorter = state.length(changedTo: minutesNow - 1) != nil ? "◂ " : "  "
      let longer = state.length(changedTo: minutesNow + 1) != nil ? " ▸" : ""
      canvas.text(
        isFocused ? shorter + minutes + longer : minutes, at: field(of: row).origin,
        style: isFocused ? Palette.title : .plain, clip: field(of: row))
    }
    if let row = layout.theme {
      let isFocused = focused == .theme
      label("Theme", row: row, isFocused: isFocused)
      let theme = state.standup.theme
      var column = field(of: row).minColumn
      column += canvas.text(
        isFocused ? "◂ " : "", at: Point(column: column, row: row.minRow), style: Palette.title,
        clip: row)
      column += canvas.text(
        "  ", at: Point(column: column, row: row.minRow), style: Palette.swatch(theme), clip: row)
      canvas.text(
        " " + theme.name + (isFocused ? " ▸" : ""), at: Point(column: column, row: row.minRow),
        style: isFocused ? Palette.title : .plain, clip: row)
    }
    if let row = layout.attendeesHeading {
      label("Attendees", row: row, isFocused: false)
    }
    let attendees = state.standup.attendees
    for (line, index) in layout.attendeeWindow.enumerated() {
      let row = layout.attendees.row(line)
      let attendee = attendees[index]
      let isFocused = focused == .attendee(attendee.id)
      if isFocused {
        canvas.text("›", at: row.origin, style: Palette.key, clip: row)
      }
      TextFieldView.draw(
        attendee.name, editor: editor, isFocused: isFocused, placeholder: "Name",
        in: field(of: row), on: &canvas)
    }
    if let row = layout.hint {
      canvas.text(
        "A standup needs a title.", at: Point(column: row.minColumn + 2, row: row.minRow),
        style: Palette.label, clip: row)
    }
  }

  static func handle(
    _ key: Key,
    _ state: StandupForm.State,
    _ view: inout FormViewState,
    in region: Rect
  ) -> Outcome? {
    view.editor = effectiveEditor(state, view)
    view.editedField = state.focus
    let rows = rows(state)
    let focused = focusedRow(state, view)
    let position = rows.firstIndex(of: focused) ?? 0
    let outcome: Outcome?
    switch key {
    case .enter:
      outcome = .confirm
    case .escape:
      outcome = .cancel
    case .tab, .down:
      outcome = move(to: rows[min(position + 1, rows.count - 1)], &view)
    case .backTab, .up:
      outcome = move(to: rows[max(position - 1, 0)], &view)
    case .control("a"):
      outcome = .send(.addAttendeeButtonTapped)
    case .control("d"):
      guard case .attendee(let id) = focused,
        let index = state.standup.attendees.index(id: id)
      else { return nil }
      outcome = .send(.deleteAttendees(atOffsets: IndexSet(integer: index)))
    case .pageUp, .pageDown:
      guard case .attendee(let id) = focused,
        let index = state.standup.attendees.index(id: id)
      else { return nil }
      // NB: Before the attendee above, or after the one below: the destination is an offset
      // in the list as it is before the move.
      let destination = key == .pageUp ? index - 1 : index + 2
      guard destination >= 0, destination <= state.standup.attendees.count else { return nil }
      outcome = .send(.moveAttendees(fromOffsets: IndexSet(integer: index), toOffset: destination))
    default:
      outcome = edit(focused, with: key, state, &view)
    }
    if case .attendee(let id) = focused, let index = state.standup.attendees.index(id: id) {
      let layout = Layout(state, view, in: region)
      view.attendeeScroll =
        visibleWindow(
          count: state.standup.attendees.count, selected: index, scroll: view.attendeeScroll,
          height: layout.attendees.size.height
        ).lowerBound
    }
    return outcome
  }

  /// The most characters of a title the form counts: more than any shortening needs to know
  /// about, and few enough that the count costs the same with every key, however long a title
  /// from a file is.
  static let mostCountedTitleLength = 999

  /// The title's length as the form states it beside the title: its number of characters, or
  /// "999+" past ``mostCountedTitleLength``.
  static func titleLength(_ title: String) -> String {
    let counted = title.prefix(mostCountedTitleLength + 1).count
    return counted > mostCountedTitleLength ? "\(mostCountedTitleLength)+" : "\(counted)"
  }

  /// The rows in order: title, length, theme, then each attendee.
  static func rows(_ state: StandupForm.State) -> [Row] {
    [.title, .length, .theme] + state.standup.attendees.map { .attendee($0.id) }
  }

  /// The row with focus: the form's focus when it has one, otherwise the view's.
  static func focusedRow(_ state: StandupForm.State, _ view: FormViewState) -> Row {
    switch state.focus {
    case .title: .title
    case .attendee(let id) where state.standup.attendees[id: id] != nil: .attendee(id)
    case .attendee, nil: view.row == .length ? .length : .theme
    }
  }

  private static func move(to row: Row, _ view: inout FormViewState) -> Outcome {
    switch row {
    case .title:
      return .send(.focusChanged(.title))
    case .length:
      view.row = .length
      return .send(.focusChanged(nil))
    case .theme:
      view.row = .theme
      return .send(.focusChanged(nil))
    case .attendee(let id):
      return .send(.focusChanged(.attendee(id)))
    }
  }

  private static func edit(
    _ row: Row,
    with key: Key,
    _ state: StandupForm.State,
    _ view: inout FormViewState
  ) -> Outcome? {
    switch (row, key) {
    case (.length, .left), (.length, .character("-")):
      return .send(.durationChanged(minutes: state.durationInMinutes - 1))
    case (.length, .right), (.length, .character("+")):
      return .send(.durationChanged(minutes: state.durationInMinutes + 1))
    case (.theme, .left), (.theme, .right), (.theme, .character(" ")):
      let themes = Theme.allCases
      let index = themes.firstIndex(of: state.standup.theme) ?? 0
      let step = key == .left ? themes.count - 1 : 1
      return .send(.themeChanged(themes[(index + step) % themes.count]))
    case (.title, _):
      return view.editor.apply(key, to: state.standup.title).map { .send(.titleChanged($0)) }
    case (.attendee(let id), _):
      guard let name = state.standup.attendees[id: id]?.name else { return nil }
      return view.editor.apply(key, to: name).map {
        .send(.attendeeNameChanged(id: id, name: $0))
      }
    default:
      return nil
    }
  }

  /// The cursor for the focused field: the view's, or, when the form moved its focus since the
  /// view last edited, one at the end of the newly focused field.
  private static func effectiveEditor(
    _ state: StandupForm.State,
    _ view: FormViewState
  ) -> LineEditor {
    view.editedField == state.focus ? view.editor : LineEditor()
  }

  /// Where the rows go: title, length and theme, the attendees' heading, as many attendees as
  /// fit, and a hint when the standup cannot be saved yet.
  struct Layout {
    var title: Rect?
    var length: Rect?
    var theme: Rect?
    var attendeesHeading: Rect?
    var attendees: Rect
    var attendeeWindow: Range<Int>
    var hint: Rect?

    init(_ state: StandupForm.State, _ view: FormViewState, in region: Rect) {
      let height = region.size.height
      func row(_ index: Int) -> Rect? { index < height ? region.row(index) : nil }
      title = row(0)
      length = row(1)
      theme = row(2)
      attendeesHeading = row(3)
      let showsHint = !state.isSaveable && height >= 7
      hint = showsHint ? row(height - 1) : nil
      let attendeeRows = max(height - 4 - (showsHint ? 2 : 0), 0)
      attendees = Rect(
        column: region.minColumn, row: region.minRow + min(4, height), width: region.size.width,
        height: attendeeRows)
      let selected: Int
      if case .attendee(let id) = focusedRow(state, view),
        let index = state.standup.attendees.index(id: id)
      {
        selected = index
      } else {
        selected = min(view.attendeeScroll, max(state.standup.attendees.count - 1, 0))
      }
      attendeeWindow = visibleWindow(
        count: state.standup.attendees.count, selected: selected, scroll: view.attendeeScroll,
        height: attendeeRows)
    }
  }
}

extension AppFeature.Destination.State {
  /// The form presented, whether it adds or edits.
  var form: StandupForm.State {
    switch self {
    case .add(let form), .edit(let form): form
    }
  }
}
