import Models
import StandupsList
import TerminalUI

/// The list of standups: a row each with the theme's colour, the title, the number of people and
/// the length. An empty list says how to start.
enum ListScreen {
  static func keys(_ state: StandupsList.State) -> [KeyHelp] {
    state.standups.isEmpty
      ? [KeyHelp("a", "add"), KeyHelp("s", "sample data"), KeyHelp("q", "quit")]
      : [
        KeyHelp("⏎", "open"), KeyHelp("a", "add"), KeyHelp("d", "delete"),
        KeyHelp("↑↓", "select"), KeyHelp("s", "sample data"), KeyHelp("q", "quit"),
      ]
  }

  static func render(
    _ state: StandupsList.State,
    _ view: ScreenViewState,
    shared: [Standup.ID: String] = [:],
    namingTeams: Bool = false,
    in region: Rect,
    format: TerminalFormat,
    on canvas: inout Canvas
  ) {
    guard !state.standups.isEmpty else {
      let lines = [
        ("No standups yet.", Palette.title),
        ("", Style.plain),
        ("Press a to add one,", Style.plain),
        ("or s to load the sample standups.", Style.plain),
      ]
      let body = region.inset(by: 1)
      for (offset, (line, style)) in lines.enumerated() where offset < body.size.height {
        canvas.text(line, at: body.row(offset).origin, style: style, clip: body)
      }
      return
    }
    let rows = view.window(count: state.standups.count, height: region.size.height)
    let selected = view.selectedRow(count: state.standups.count)
    for (line, index) in rows.enumerated() {
      let standup = state.standups[index]
      let row = region.row(line)
      let isSelected = index == selected
      canvas.fill(row, style: isSelected ? Palette.selected : .plain)
      canvas.text("  ", at: row.origin, style: Palette.swatch(standup.theme), clip: row)
      if shared[standup.id] != nil {
        // NB: Between the swatch and the title: a shared standup's mark.
        canvas.text(
          "•", at: Point(column: row.minColumn + 2, row: row.minRow),
          style: isSelected ? Palette.selected : Palette.label, clip: row)
      }
      let count = standup.attendees.count
      // NB: Fixed-width columns keep the counts and lengths aligned from row to row.
      let people = "\(count) \(count == 1 ? "person" : "people")"
      let length = format.length(standup.duration)
      // NB: In several teams, a column says which team each shared standup is in.
      let team =
        namingTeams
        ? (shared[standup.id].map { $0.truncated(toWidth: 12) } ?? "").padded(toWidth: 13) : ""
      let details =
        team + people.padded(toWidth: 10)
        + String(repeating: " ", count: max(9 - length.displayWidth, 0))
        + length + " "
      let detailsWidth = min(details.displayWidth, max(row.size.width - 14, 0))
      let titleRoom = max(row.size.width - 3 - detailsWidth - 1, 0)
      canvas.text(
        standup.displayTitle(toWidth: titleRoom),
        at: Point(column: row.minColumn + 3, row: row.minRow),
        style: isSelected ? Palette.selected.bold() : Palette.title,
        clip: row
      )
      canvas.text(
        details.truncated(toWidth: detailsWidth),
        at: Point(column: row.maxColumn - detailsWidth, row: row.minRow),
        style: isSelected ? Palette.selected : Palette.label,
        clip: row
      )
    }
  }

  static func handle(
    _ key: Key,
    _ state: StandupsList.State,
    _ view: inout ScreenViewState,
    height: Int
  ) -> StandupsList.Action? {
    let standups = state.standups
    if view.moveSelection(for: key, count: standups.count, height: height) {
      return nil
    }
    let selected = view.selectedRow(count: standups.count).map { standups[$0].id }
    switch key {
    case .enter, .right, .character("l"):
      return selected.map { .standupTapped(id: $0) }
    case .character("a"):
      return .addButtonTapped
    case .character("d"), .delete:
      return selected.map { .deleteButtonTapped(id: $0) }
    case .character("s"):
      return .loadSampleDataButtonTapped
    default:
      return nil
    }
  }
}
