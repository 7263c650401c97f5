public import AppFeature
import CasePaths
public import Composable
public import Foundation
import MeetingFeature
public import Models
public import Persistence
public import StandupForm
public import Tagged
public import TerminalUI

/// What the terminal remembers about each screen beyond the features' state: selections,
/// scroll offsets, the line being typed.
///
/// The view state of pushed screens lives in a dictionary keyed by `StackElementID`. After each
/// store change ``update(from:)`` applies what was pushed and popped (from
/// `StackState.difference(from:)`): a popped screen's view state is dropped, a pushed one starts
/// fresh, and the rest of the stack is never looked at. Pop a standup and open it again, and
/// its screen starts at the top, as a new screen should.
///
/// ```swift
/// let change = viewState.update(from: store.state)
/// let frame = AppView.render(store.state, viewState, size: size, format: format)
/// ```
public struct AppViewState: Sendable {
  /// The list's selected row and scroll offset.
  public var list = ScreenViewState()

  /// The view state of each screen on the stack.
  public private(set) var screens: [StackElementID: ScreenViewState] = [:]

  /// The add or edit form's view state, fresh for each form presented.
  public var form = FormViewState()

  /// The highlighted button of the alert on top, fresh for each alert.
  public var alertSelection = 0

  /// Whether the list of every key is shown.
  public var isShowingHelp = false

  /// A passing line for the status bar about the keys themselves, shown until the next key: keys
  /// ignored as the screen changed, a paste cut at its limit.
  public var feedback: String?

  /// What the status bar says until the user puts it away with `^X` (not at the next key, which
  /// may be unrelated work): where unreadable data was kept aside, a recovery file from the last
  /// run, a meeting kept after a crash, a session that could not be restored, a problem written
  /// to the log. It wraps, so that a path it names is shown whole.
  public var notice: String?

  /// How this machine stands with its team's server when that needs saying ("offline, the server
  /// does not answer — 3 changes waiting"); `nil` in no team, or in sync.
  public var team: String?

  /// The shared standups, each with the name of its team: the list marks them, and the detail
  /// screen names the team.
  public var sharedStandups: [Standup.ID: String] = [:]

  /// The teams this machine syncs with, in the order it joined them: when there is one or more,
  /// the detail screen's `t` offers to share a personal standup with one of them.
  public var teamNames: [String] = []

  /// The question `t` asks before a standup becomes the team's.
  public var shareQuestion: AlertState<ShareAnswer>?

  /// The question about a standup another member deleted while this machine changed it.
  public var teamDeletionQuestion: AlertState<TeamDeletionAnswer>?

  /// The standups whose deletion question the user put away with `esc` in this session: asked
  /// again at the next launch, not at every round.
  public var teamDeletionsPutAway: Set<Standup.ID> = []

  /// The data file the app reads and writes, which every alert about the data names; `nil`
  /// when there is none to name (a test's storage in memory).
  public var dataFile: String?

  /// Whether the user asked to quit during a meeting and is being asked what to do with it;
  /// the app quits once the meeting is over.
  public var isQuittingAfterMeeting = false

  /// The question asked when the user quits with changes that could not be saved: stay, or
  /// quit and keep them in a recovery file.
  public var quitQuestion: AlertState<QuitAnswer>?

  /// What is in front of the user: the screen on top, and the alert or form over it.
  public private(set) var shown = Shown()

  /// What is in front of the user. A change of any part is a new thing to look at.
  public struct Shown: Equatable, Sendable {
    /// The screen on top of the stack, or `nil` for the list.
    public var screen: StackElementID?
    /// The alert over it, if any.
    public var alert: UUID?
    /// The standup of the form over it, if any.
    public var form: Standup.ID?

    /// Nothing shown yet.
    public init(screen: StackElementID? = nil, alert: UUID? = nil, form: Standup.ID? = nil) {
      self.screen = screen
      self.alert = alert
      self.form = form
    }
  }

  private var lastPath: StackState<AppFeature.Path.State>.Snapshot?
  private var bottomStandup: Standup.ID?
  private var topMeeting: Meeting.ID?
  private var backup: String?

  /// Creates view state for a store that shows nothing yet.
  public init() {}

  /// Catches up with the store: view state for the screens pushed since the last update, none
  /// for those popped, and a fresh choice for a new alert or form.
  ///
  /// A screen uncovered by a pop selects what the user came back from: the list, the standup
  /// whose screen closed; a standup's screen, the meeting whose screen closed.
  ///
  /// - Parameter state: The app's state now.
  /// - Returns: The screens popped and pushed since the last update.
  @discardableResult
  public mutating func update(from state: PersistedApp.State)
    -> StackState<AppFeature.Path.State>
    .Difference
  {
    let alert = AppView.presentedAlert(in: state, self)
    if let kept = state.storage.backup, kept != backup {
      notice = "The unreadable data file was kept aside as \(kept)."
    }
    backup = state.storage.backup
    let state = state.app
    let difference =
      lastPath.map { state.path.difference(from: $0) }
      ?? StackState.Difference(popped: [], pushed: Array(state.path.ids))
    for id in difference.popped {
      screens[id] = nil
    }
    for id in difference.pushed {
      screens[id] = ScreenViewState()
    }
    lastPath = state.path.snapshot
    if !difference.popped.isEmpty {
      selectWhatWasClosed(in: state)
    }
    bottomStandup = state.path.first?.standup.id
    topMeeting = state.path.last.flatMap { $0[case: \.meeting]?.meeting.id }

    if alert?.id != shown.alert {
      alertSelection = alert?.defaultIndex ?? 0
    }
    let form = state.destination.map(\.form.standup.id)
    if form != shown.form {
      self.form = FormViewState()
    }
    shown = Shown(screen: state.path.ids.last, alert: alert?.id, form: form)
    return difference
  }

  /// Prepares what the screen on top keeps from frame to frame for a terminal of `size`: a past
  /// meeting's transcript wrapped to its width (``MeetingScreen/WrappedTranscript``). Call it
  /// before drawing, so that a frame costs what it shows.
  ///
  /// - Parameters:
  ///   - state: The app's state, as it will be drawn.
  ///   - size: The size of the terminal.
  public mutating func prepare(for state: PersistedApp.State, size: Size) {
    guard case .element(let id, .meeting(let meeting)) = AppView.topScreen(state) else { return }
    let region = AppView.Layout(state, self, size: size).content
    let wrapped = MeetingScreen.wrappedTranscript(
      meeting, in: region, wrapped: screens[id]?.wrappedTranscript)
    screens[id]?.wrappedTranscript = wrapped
  }

  /// After a pop, selects on the screen now on top the row of what was closed.
  private mutating func selectWhatWasClosed(in state: AppFeature.State) {
    guard let top = state.path.ids.last else {
      if let bottomStandup, let index = state.list.standups.index(id: bottomStandup) {
        list.selection = index
      }
      return
    }
    if let topMeeting, let detail = state.path[id: top]?[case: \.detail],
      let index = detail.standup.meetings.index(id: topMeeting)
    {
      screens[top]?.selection = index
    }
  }

  /// The view state of the screen with the given ID.
  public subscript(screen id: StackElementID) -> ScreenViewState {
    get { screens[id] ?? ScreenViewState() }
    set { screens[id] = newValue }
  }
}

/// The view state of one screen: what it has selected, how far it is scrolled, and what is
/// being typed on it.
public struct ScreenViewState: Equatable, Sendable {
  /// The selected row.
  public var selection = 0
  /// The first line shown.
  public var scroll = 0
  /// The line being typed (on the recorder, the next line of the transcript).
  public var draft = ""
  /// The cursor in ``draft``.
  public var editor = LineEditor()
  /// On a past meeting's screen, its transcript as wrapped for the last frame.
  var wrappedTranscript: MeetingScreen.WrappedTranscript?

  /// Creates fresh view state.
  public init() {}
}

extension ScreenViewState {
  /// Moves the selection for an arrow, paging or Home/End key, keeping it among `count` rows
  /// and in view in a window of `height` rows.
  ///
  /// - Returns: Whether `key` was a selection key.
  mutating func moveSelection(for key: Key, count: Int, height: Int) -> Bool {
    let last = max(count - 1, 0)
    let page = max(height - 1, 1)
    switch key {
    case .up, .character("k"): selection = max(min(selection, last) - 1, 0)
    case .down, .character("j"): selection = min(selection + 1, last)
    case .pageUp: selection = max(min(selection, last) - page, 0)
    case .pageDown: selection = min(selection + page, last)
    case .home: selection = 0
    case .end: selection = last
    default: return false
    }
    scroll = window(count: count, height: height).lowerBound
    return true
  }

  /// The selected row, kept among `count` rows (the rows may have changed since it was chosen).
  func selectedRow(count: Int) -> Int? {
    count > 0 ? min(max(selection, 0), count - 1) : nil
  }

  /// The rows shown in `height` lines: the window closest to the last scroll position that
  /// shows the selected row.
  func window(count: Int, height: Int) -> Range<Int> {
    visibleWindow(
      count: count, selected: selectedRow(count: count) ?? 0, scroll: scroll, height: height)
  }

  /// Scrolls text of `lineCount` lines shown in `height` lines, for a scrolling key.
  ///
  /// - Returns: Whether `key` was a scrolling key.
  mutating func scrollText(for key: Key, lineCount: Int, height: Int) -> Bool {
    let last = max(lineCount - height, 0)
    let page = max(height - 1, 1)
    switch key {
    case .up, .character("k"): scroll = max(min(scroll, last) - 1, 0)
    case .down, .character("j"): scroll = min(scroll + 1, last)
    case .pageUp: scroll = max(min(scroll, last) - page, 0)
    case .pageDown, .character(" "): scroll = min(scroll + page, last)
    case .home: scroll = 0
    case .end: scroll = last
    default: return false
    }
    return true
  }
}

/// The rows shown in `height` lines: the window closest to `scroll` that shows `selected`.
func visibleWindow(count: Int, selected: Int, scroll: Int, height: Int) -> Range<Int> {
  guard height > 0, count > 0 else { return 0..<0 }
  var start = min(max(scroll, 0), max(count - height, 0))
  start = min(start, selected)
  start = max(start, selected - height + 1, 0)
  return start..<min(start + height, count)
}

/// The view state of the add or edit form.
public struct FormViewState: Equatable, Sendable {
  /// The row with focus when no text field has it.
  public var row = FormRow.length
  /// The text field the cursor belongs to; when the form moves its focus elsewhere, the cursor
  /// goes to the end of the newly focused field.
  public var editedField: StandupForm.State.Field?
  /// The cursor in the focused text field.
  public var editor = LineEditor()
  /// The first attendee shown.
  public var attendeeScroll = 0

  /// A form row that is not a text field.
  public enum FormRow: Hashable, Sendable {
    case length
    case theme
  }

  /// Creates fresh view state.
  public init() {}
}
