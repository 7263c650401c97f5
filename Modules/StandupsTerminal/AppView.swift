import AppFeature
import CasePaths
public import Composable
import MeetingFeature
public import Models
public import Persistence
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsList
public import TerminalUI

/// The whole app on a terminal: the screen on top of the stack (or the list), a breadcrumb of
/// the stack above it, the add or edit sheet and any alert over it, a status line when the data
/// is not being saved, and a legend of the keys at the bottom.
///
/// Rendering is a pure function of the app's state and the view state, so a test renders any
/// state at any size without a terminal; key handling turns a key into view-state changes and
/// the app's actions, which ``TerminalApp`` sends.
///
/// ```swift
/// let frame = AppView.render(store.state, viewState, size: Size(width: 80, height: 24),
///                            format: TerminalFormat(timeZone: .current))
/// print(frame.plainText)
/// ```
public enum AppView {
  /// What a key asks of the app beyond changes to the view state.
  public enum Command: Equatable, Sendable {
    /// Send this action to the store.
    case send(PersistedApp.Action)
    /// Add the line typed on this recorder to the meeting's transcript.
    case submitDraft(StackElementID)
    /// Quit the app: once its changes are saved, or after asking when they cannot be.
    case quit
    /// Quit although some changes could not be saved (they go to a recovery file).
    case quitAnyway
    /// Stay in the app instead of quitting with changes that could not be saved.
    case stay
    /// Ask whether to share this standup with the team.
    case askToShare(Standup.ID)
    /// Share this standup with the team.
    case share(Standup.ID, team: String)
    /// Close the question about sharing, sharing nothing.
    case keepPersonal
    /// Answer the question about a standup another member deleted.
    case answerTeamDeletion(TeamDeletionAnswer)
    /// Put that question away until the next launch.
    case putTeamDeletionAway

    /// Send this action of the app's screens to the store.
    static func sendToApp(_ action: AppFeature.Action) -> Self {
      .send(.app(action))
    }
  }

  /// Draws the app.
  ///
  /// - Parameters:
  ///   - state: The app's state.
  ///   - view: The view state.
  ///   - size: The size of the terminal.
  ///   - format: How dates and times are written.
  /// - Returns: The frame.
  public static func render(
    _ state: PersistedApp.State,
    _ view: AppViewState,
    size: Size,
    format: TerminalFormat
  ) -> Canvas {
    var canvas = Canvas(size: size)
    let layout = Layout(state, view, size: size)
    drawBreadcrumb(state, format: format, in: layout.breadcrumb, on: &canvas)
    switch topScreen(state) {
    case .list:
      ListScreen.render(
        state.app.list, view.list, shared: view.sharedStandups,
        namingTeams: view.teamNames.count > 1, in: layout.content,
        format: format, on: &canvas)
    case .element(let id, .detail(let detail)):
      DetailScreen.render(
        detail, view[screen: id], team: view.sharedStandups[detail.standup.id],
        in: layout.content, format: format, on: &canvas)
    case .element(let id, .meeting(let meeting)):
      MeetingScreen.render(
        meeting, view[screen: id], in: layout.content, format: format, on: &canvas)
    case .element(let id, .record(let record)):
      RecordScreen.render(
        record, view[screen: id], in: layout.content, format: format, on: &canvas)
    }
    if let status = layout.status {
      let area = status.inset(left: 1, right: 1)
      for (row, (text, style)) in layout.statusLines.enumerated() {
        let line = area.row(row)
        canvas.text(text, at: line.origin, style: style, clip: line)
      }
    }
    if let destination = state.app.destination {
      let sheet = layout.sheet
      // NB: The screen under the sheet is cleared, not shown around it: half-covered rows
      // only confuse.
      canvas.fill(layout.content, style: .plain)
      canvas.fill(sheet, style: .plain)
      canvas.box(sheet, style: Palette.frame, title: sheetTitle(destination))
      FormScreen.render(
        destination.form, view.form, in: sheet.inset(top: 1, left: 1, bottom: 1, right: 1),
        on: &canvas)
    }
    let alert = presentedAlert(in: state, view)
    if let alert {
      AlertOverlay.render(alert, selection: view.alertSelection, over: layout.overlay, on: &canvas)
    }
    drawLegend(keys(state, view), in: layout.footer, on: &canvas)
    if view.isShowingHelp {
      drawHelp(keys(state, view, all: true), over: layout.overlay, on: &canvas)
    }
    return canvas
  }

  /// Applies a key.
  ///
  /// - Parameters:
  ///   - key: The key pressed.
  ///   - state: The app's state.
  ///   - view: The view state, which the key may change.
  ///   - size: The size of the terminal, for keys that scroll.
  /// - Returns: What else the key asks for, in order.
  public static func handle(
    _ key: Key,
    _ state: PersistedApp.State,
    _ view: inout AppViewState,
    size: Size
  ) -> [Command] {
    if view.isShowingHelp {
      view.isShowingHelp = false
      // NB: The keys that open the help, and Esc, only close it. Any other key closes it and
      // does what it does on the screen below, as the help has told the user.
      if key == .escape || key == .control("k") || key == .character("?") { return [] }
    }
    if key == .control("x"), hasNotice(state, view) {
      view.notice = nil
      return state.storage.notice == nil ? [] : [.send(.noticeDismissed)]
    }
    let screen = topScreen(state)
    if key == .control("c") {
      // NB: A second Ctrl-C while the app asks whether to quit is the answer.
      guard view.quitQuestion == nil else { return [.quitAnyway] }
      guard case .element(let id, .record(let record)) = screen, !record.isEnded else {
        return [.quit]
      }
      view.isQuittingAfterMeeting = true
      return record.alert == nil
        ? [.sendToApp(.path(.element(id: id, action: .record(.endMeetingButtonTapped))))] : []
    }
    if let alert = presentedAlert(in: state, view) {
      guard let pressed = AlertOverlay.handle(key, alert, selection: &view.alertSelection) else {
        return []
      }
      return [alert.press(pressed)]
    }
    if key == .control("k") || (key == .character("?") && !isTyping(state)) {
      view.isShowingHelp = true
      return []
    }
    let layout = Layout(state, view, size: size)
    if let destination = state.app.destination {
      let region = layout.sheet.inset(top: 1, left: 1, bottom: 1, right: 1)
      let isAdding = destination.is(\.add)
      switch FormScreen.handle(key, destination.form, &view.form, in: region) {
      case .send(let action)?:
        return [.sendToApp(.destination(.presented(isAdding ? .add(action) : .edit(action))))]
      case .confirm?:
        return [.sendToApp(isAdding ? .confirmAddButtonTapped : .doneEditingButtonTapped)]
      case .cancel?:
        return [.sendToApp(isAdding ? .dismissAddButtonTapped : .cancelEditButtonTapped)]
      case nil:
        return []
      }
    }
    switch screen {
    case .list:
      if key == .character("q") { return [.quit] }
      let height = layout.content.size.height
      return ListScreen.handle(key, state.app.list, &view.list, height: height)
        .map { [.sendToApp(.list($0))] } ?? []

    case .element(let id, .record):
      switch RecordScreen.handle(key, &view[screen: id]) {
      case .send(let action)?:
        return [.sendToApp(.path(.element(id: id, action: .record(action))))]
      case .submitDraft?:
        return [.submitDraft(id)]
      case nil:
        return []
      }

    case .element(let id, let element):
      switch key {
      case .character("q"):
        return [.quit]
      case .escape, .left, .backspace, .character("h"):
        return [.sendToApp(.path(.popFrom(id: id)))]
      case .character("t"):
        if case .detail(let detail) = element, canShare(detail.standup, view) {
          return [.askToShare(detail.standup.id)]
        }
      default:
        break
      }
      let action: AppFeature.Path.Action?
      switch element {
      case .detail(let detail):
        action = DetailScreen.handle(key, detail, &view[screen: id], in: layout.content)
          .map { .detail($0) }
      case .meeting(let meeting):
        action = MeetingScreen.handle(key, meeting, &view[screen: id], in: layout.content)
          .map { .meeting($0) }
      case .record:
        action = nil
      }
      return action.map { [.sendToApp(.path(.element(id: id, action: $0)))] } ?? []
    }
  }

  /// The screen shown: the top of the stack, or the list when the stack is empty.
  enum Screen {
    case list
    case element(StackElementID, AppFeature.Path.State)
  }

  static func topScreen(_ state: PersistedApp.State) -> Screen {
    guard let id = state.app.path.ids.last, let element = state.app.path[id: id] else {
      return .list
    }
    return .element(id, element)
  }

  /// The crumbs of the breadcrumb: the list, then a name for each screen on the stack, each cut
  /// to the `width` of the row.
  static func breadcrumb(
    _ state: PersistedApp.State,
    format: TerminalFormat,
    width: Int
  ) -> [String] {
    ["Standups"]
      + state.app.path.map { element in
        switch element {
        case .detail(let detail): detail.standup.displayTitle(toWidth: width)
        case .meeting(let meeting): format.date(meeting.meeting.date)
        case .record: "Recording"
        }
      }
  }

  /// Whether keys type text on the screen shown: the recorder's transcript or a form's fields.
  static func isTyping(_ state: PersistedApp.State) -> Bool {
    if state.app.destination != nil { return true }
    if case .element(_, .record) = topScreen(state) { return true }
    return false
  }

  /// The keys of what has the keyboard, with the key for the full list (or, with `all`, the
  /// keys that work everywhere).
  static func keys(
    _ state: PersistedApp.State,
    _ view: AppViewState,
    all: Bool = false
  ) -> [KeyHelp] {
    let helpKey = KeyHelp(isTyping(state) ? "^K" : "?", "keys")
    let keys =
      (hasNotice(state, view) ? [KeyHelp("^X", "put the notice away")] : [])
      + self.keys(of: state, view)
    guard all else { return keys.filter(\.isInLegend) + [helpKey] }
    // NB: Where keys type text, `?` is a character like any other: only ^K shows the keys.
    let allKeysKey = isTyping(state) ? "^K" : "? ^K"
    return keys + [
      KeyHelp(allKeysKey, "these keys"), KeyHelp("^C", "quit (asks first when needed)"),
    ]
  }

  private static func keys(of state: PersistedApp.State, _ view: AppViewState) -> [KeyHelp] {
    if presentedAlert(in: state, view) != nil {
      return AlertOverlay.keys
    }
    if let destination = state.app.destination {
      return FormScreen.keys(confirm: destination.is(\.add) ? "add" : "done")
    }
    switch topScreen(state) {
    case .list: return ListScreen.keys(state.app.list)
    case .element(_, .detail(let detail)):
      let keys = DetailScreen.keys(detail)
      guard canShare(detail.standup, view) else { return keys }
      return keys.dropLast() + [KeyHelp("t", "share with team")] + keys.suffix(1)
    case .element(_, .meeting): return MeetingScreen.keys
    case .element(_, .record): return RecordScreen.keys
    }
  }

  /// Whether `t` offers to share `standup`: this machine is in a team, and it is personal.
  static func canShare(_ standup: Standup, _ view: AppViewState) -> Bool {
    !view.teamNames.isEmpty && view.sharedStandups[standup.id] == nil
  }

  private static func sheetTitle(_ destination: AppFeature.Destination.State) -> String {
    destination.is(\.add) ? "New standup" : "Edit standup"
  }

  /// The most rows the status area takes from the screen above it on a terminal `height` rows
  /// tall: half of them, so that a notice shows whole the files it names and the commands it
  /// gives; one on a terminal under 12 rows tall; and never so many that the screen has fewer
  /// than two.
  static func mostStatusRows(height: Int) -> Int {
    max(min(height >= 12 ? height / 2 : 1, height - 4), 0)
  }

  /// Whether a notice is up, for `^X` to put away.
  static func hasNotice(_ state: PersistedApp.State, _ view: AppViewState) -> Bool {
    view.notice != nil || state.storage.notice != nil
  }

  /// The status area, wrapped to `width` in at most `rows` rows: feedback about the last keys,
  /// then the notices until the user puts them away with `^X`, then why the data is not being
  /// saved (two rows at most), on every screen. The notices wrap over the rows the others leave,
  /// so that a path they name can be read; when they need more, the last ends in "…".
  static func statusLines(
    _ state: PersistedApp.State,
    _ view: AppViewState,
    width: Int,
    rows: Int
  ) -> [(String, Style)] {
    let feedback: [(String, Style)] =
      view.feedback.map { [($0.truncated(toWidth: width), Palette.label)] } ?? []
    let problem: [(String, Style)] =
      state.storage.problem.map { problem in
        let text: JoinedSequence = ["⚠", problem].joined(separator: " ")
        return text.wrapped(toWidth: width, maxLines: 2).map { ($0, Palette.problem) }
      } ?? []
    let team: [(String, Style)] =
      view.team.map { [("⚠ \($0)".truncated(toWidth: width), Palette.problem)] } ?? []
    var notice: [(String, Style)] = []
    let notices = [view.notice, state.storage.notice].compactMap { $0 }
    let noticeRows = rows - feedback.count - problem.count - team.count
    if !notices.isEmpty, noticeRows > 0 {
      // NB: Joined as it is read, and read only as far as the rows shown and one more, to know
      // whether it goes on: a notice can quote a title of any length.
      let text: JoinedSequence = (notices + ["(^X puts this away)"]).joined(separator: " ")
      var lines = text.wrapped(toWidth: width, maxLines: noticeRows + 1)
      if lines.count > noticeRows {
        lines.removeLast()
        lines[lines.count - 1] = (lines[lines.count - 1] + " …").truncated(toWidth: width)
      }
      notice = lines.map { ($0, Palette.title) }
    }
    return Array((feedback + notice + problem + team).prefix(max(rows, 0)))
  }
}
