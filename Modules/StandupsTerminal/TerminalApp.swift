public import AppFeature
import CasePaths
public import Composable
import RecordMeeting
public import TerminalUI

/// The app on a terminal, minus the terminal: the store, the view state, the typed transcript,
/// and the glue between them. Keys go in, frames come out.
///
/// This is what the `standups` executable drives from a real terminal and what tests drive with
/// keys. After every change of the store it catches the view state up with the stack, and does
/// for each pushed screen what appearing does on other platforms: a recorder that appears is
/// sent `onTask`, which starts its timer and transcription (popping it cancels them).
///
/// ```swift
/// let app = TerminalApp(store: store, transcript: transcript, format: format)
/// app.start()
/// app.press(.character("a"), size: size)
/// print(app.render(size: size).plainText)
/// ```
@MainActor
public final class TerminalApp {
  /// The app's store.
  public let store: Store<AppFeature.State, AppFeature.Action>

  /// What the terminal remembers beyond the store: selections, scrolling, typing.
  public private(set) var view = AppViewState()

  /// Where typed lines go; the store's speech client must be its ``TypedTranscript/client``.
  public let transcript: TypedTranscript

  /// How dates and times are written.
  public var format: TerminalFormat

  /// Whether the user asked to quit (and, during a meeting, answered what to do with it).
  public private(set) var isQuitRequested = false

  /// Called after anything on screen may have changed, by a key or by an effect.
  public var onChange: (@MainActor () -> Void)?

  /// How many times the store has changed, to tell when effects have gone quiet.
  public private(set) var changeCount = 0

  /// A line for the status bar about the launch (a session that could not be restored), shown
  /// until the first key.
  public var notice: String? {
    get { view.notice }
    set { view.notice = newValue }
  }

  private var observation: StoreObservation?

  /// Creates the app over a store.
  ///
  /// - Parameters:
  ///   - store: The app's store, with `transcript.client` as its speech client.
  ///   - transcript: The typed transcript.
  ///   - format: How dates and times are written.
  public init(
    store: Store<AppFeature.State, AppFeature.Action>,
    transcript: TypedTranscript,
    format: TerminalFormat
  ) {
    self.store = store
    self.transcript = transcript
    self.format = format
    observation = store.observe { [weak self] in self?.storeChanged() }
  }

  /// Loads the standups and sets up the screens already on the stack (a restored session or a
  /// deep link).
  public func start() {
    storeChanged()
    store.send(.onTask)
  }

  /// Applies a key.
  ///
  /// - Parameters:
  ///   - key: The key pressed.
  ///   - size: The size of the terminal, which decides how far keys scroll.
  public func press(_ key: Key, size: Size) {
    view.notice = nil
    for command in AppView.handle(key, store.state, &view, size: size) {
      switch command {
      case .send(let action):
        store.send(action)
      case .submitDraft(let id):
        if transcript.submit(view[screen: id].draft) {
          view[screen: id].draft = ""
          view[screen: id].editor = LineEditor()
        }
      case .quit:
        isQuitRequested = true
      }
    }
    onChange?()
  }

  /// Draws the app at `size`.
  public func render(size: Size) -> Canvas {
    AppView.render(store.state, view, size: size, format: format)
  }

  /// Writes any change not saved yet, and waits until it is written (or failed).
  public func flush() async {
    await store.send(.flushPendingSave).finish()
  }

  /// Ends a meeting in progress and keeps what was said so far, as "Save and end" would; for
  /// when the app must stop at once (the terminal closed, the system shutting down).
  public func saveMeetingInProgress() async {
    guard let id = store.state.path.ids.last,
      let meeting = store.state.path[id: id]?[case: \.record], !meeting.isEnded
    else { return }
    if meeting.alert == nil {
      store.send(.path(.element(id: id, action: .record(.endMeetingButtonTapped))))
    }
    await store.send(.path(.element(id: id, action: .record(.alert(.presented(.confirmSave))))))
      .finish()
  }

  private func storeChanged() {
    changeCount &+= 1
    let state = store.state
    let change = view.update(from: state)
    for id in change.pushed {
      if case .record? = state.path[id: id] {
        store.send(.path(.element(id: id, action: .record(.onTask))))
      }
    }
    if view.isQuittingAfterMeeting {
      let meeting = state.path.ids.last.flatMap { state.path[id: $0]?[case: \.record] }
      switch meeting {
      case nil:
        isQuitRequested = true
      case let meeting? where meeting.alert == nil && !meeting.isEnded:
        // NB: The user chose to resume the meeting; quitting is off.
        view.isQuittingAfterMeeting = false
      case .some:
        break
      }
    }
    onChange?()
  }
}
