import AppFeature
import CasePaths
public import Composable
public import Foundation
public import Models
public import Persistence
import RecordMeeting
public import StorageClient
public import Tagged
public import TerminalUI

/// The app on a terminal, minus the terminal: the store, the view state, the typed transcript,
/// and the glue between them. Keys go in, frames come out.
///
/// This is what the `standups` executable drives from a real terminal and what tests drive with
/// keys. After every change of the store it catches the view state up with the stack, and does
/// for each pushed screen what appearing does on other platforms: a recorder that appears opens
/// its meeting's transcript and is sent `onTask`, which starts its timer and listening.
///
/// Keys belong to the screen the user saw. When what is in front of the user changes without a
/// key of theirs (a meeting ends on time, an alert appears), an ``InputGuard`` drops the keys
/// typed through the change; a screen that closes because of the user's own key (a meeting
/// saved, a deletion confirmed) is theirs, and keys go on acting.
///
/// ```swift
/// let start = ContinuousClock.now
/// let app = TerminalApp(
///   store: store, transcript: transcript, format: format, now: { ContinuousClock.now - start })
/// app.start()
/// app.press(.character("a"), size: size)
/// print(app.render(size: size).plainText)
/// ```
@MainActor
public final class TerminalApp {
  /// The app's store.
  public let store: Store<PersistedApp.State, PersistedApp.Action>

  /// What the terminal remembers beyond the store: selections, scrolling, typing.
  public private(set) var view = AppViewState()

  /// Where typed lines go; the store's speech client must be its ``TypedTranscript/client``.
  public let transcript: TypedTranscript

  /// How dates and times are written.
  public var format: TerminalFormat

  /// Whether the user asked to quit (and, during a meeting, answered what to do with it). The
  /// run loop then calls ``mayQuit()``.
  public private(set) var isQuitRequested = false

  /// Whether the user chose to quit although some changes could not be saved.
  private var isQuittingWithUnsavedChanges = false

  /// Where a recovery file may go, in order (``RecoveryFile/places(state:database:environment:)``).
  public var recoveryPlaces: [URL] = []

  /// The date a recovery file is named after: the real one, or a script's.
  public var recoveryDate: @MainActor () -> Date = { Date() }

  /// The recovery file written for the question about quitting with unsaved changes, which
  /// quitting keeps (staying removes it: the changes are still here).
  public private(set) var preparedRecoveryFile: URL?

  /// Called after anything on screen may have changed, by a key or by an effect.
  public var onChange: (@MainActor () -> Void)?

  /// How many times the store has changed, to tell when effects have gone quiet.
  public private(set) var changeCount = 0

  /// What the status bar says until the user puts it away (``AppViewState/notice``).
  public var notice: String? {
    get { view.notice }
    set { view.notice = newValue }
  }

  /// The data file, which alerts about the data name (``AppViewState/dataFile``).
  public var dataFile: String? {
    get { view.dataFile }
    set { view.dataFile = newValue }
  }

  /// The time now on the clock keys are timed by: real in a terminal, virtual in a script.
  private let now: @MainActor () -> Duration
  private var inputGuard = InputGuard()
  private var isHandlingTheUser = false
  /// The screens the user's keys acted on whose effects are still running, with how many: one
  /// of these closing is the user's doing (a meeting saved, a deletion confirmed).
  private var screensActedOn: [StackElementID: Int] = [:]
  private var observation: StoreObservation?

  /// Creates the app over a store.
  ///
  /// - Parameters:
  ///   - store: The app's store, with `transcript.client` as its speech client.
  ///   - transcript: The typed transcript.
  ///   - format: How dates and times are written.
  ///   - now: The time on the clock keys are timed by, as a duration since any fixed start.
  public init(
    store: Store<PersistedApp.State, PersistedApp.Action>,
    transcript: TypedTranscript,
    format: TerminalFormat,
    now: @escaping @MainActor () -> Duration
  ) {
    self.store = store
    self.transcript = transcript
    self.format = format
    self.now = now
    observation = store.observe { [weak self] in self?.storeChanged() }
  }

  /// Sets up the screens already on the stack (a restored session or a deep link), and lets the
  /// storage go on with what waits on it (``PersistedApp/Action/appeared``).
  public func start() {
    // NB: The first screens are the ones the user launched the app into, not a change; an alert
    // up at launch (about the data) is one the user has not seen yet, so keys typed ahead of it
    // answer nothing.
    isHandlingTheUser = true
    storeChanged()
    isHandlingTheUser = false
    if view.shown.alert != nil {
      inputGuard.screenChanged(at: now())
    }
    store.send(.appeared)
  }

  /// Applies a key, unless it was typed through a change of screen the user did not make.
  ///
  /// - Parameters:
  ///   - key: The key pressed.
  ///   - size: The size of the terminal, which decides how far keys scroll.
  public func press(_ key: Key, size: Size) {
    if case .pasteCut(let droppedBytes) = key {
      // NB: Not a key: it tells what happened to the paste before it. Feedback that the paste
      // was ignored says more, and stays.
      if view.feedback == nil {
        view.feedback =
          "The paste was cut at \(KeyDecoder.pasteLimit / 1024) KB: "
          + "its last \(droppedBytes) bytes were left out."
        onChange?()
      }
      return
    }
    // NB: Ctrl-C is never typed by accident, and quitting asks whenever something is at stake.
    guard key == .control("c") || inputGuard.admitsKey(at: now()) else {
      view.feedback =
        "Ignored \(Wording.counted(inputGuard.keysHeld, "key")) "
        + "typed as the screen changed. Pause, then go on."
      onChange?()
      return
    }
    view.feedback = nil
    isHandlingTheUser = true
    defer { isHandlingTheUser = false }
    let draft = lineInProgress
    for command in AppView.handle(key, store.state, &view, size: size) {
      switch command {
      case .send(let action):
        let task = store.send(action)
        if case .app(.path(.element(let id, _))) = action {
          trackEffects(task, ofKeyOn: id)
        }
      case .submitDraft(let id):
        if transcript.submit(view[screen: id].draft) {
          view[screen: id].draft = ""
          view[screen: id].editor = LineEditor()
        }
      case .quit:
        isQuitRequested = true
      case .quitAnyway:
        closeQuitQuestion()
        isQuittingWithUnsavedChanges = true
        isQuitRequested = true
      case .stay:
        closeQuitQuestion()
        removePreparedRecoveryFile()
        resumeAfterStaying()
      case .askToShare(let id):
        if let standup = store.state.app.list.standups[id: id], !view.teamNames.isEmpty {
          view.alertSelection = 0
          view.shareQuestion = .shareWithTeam(standup, teams: view.teamNames)
        }
      case .share(let id, let team):
        view.shareQuestion = nil
        if let shareWithTeam {
          writeTeamAnswer { await shareWithTeam(id, team) }
        }
      case .keepPersonal:
        view.shareQuestion = nil
      case .answerTeamDeletion(let answer):
        view.teamDeletionQuestion = nil
        if let answerTeamDeletion {
          writeTeamAnswer { await answerTeamDeletion(answer) }
        }
      case .putTeamDeletionAway:
        if let id = view.teamDeletionQuestion?.standupID {
          view.teamDeletionsPutAway.insert(id)
        }
        view.teamDeletionQuestion = nil
      }
    }
    if let line = lineInProgress, line != draft {
      transcript.setLineInProgress(line)
    }
    onChange?()
  }

  /// Closes the question about quitting. It changes what is shown without changing the store,
  /// so the view catches up here rather than in ``storeChanged()``; what it shows now is the
  /// user's doing.
  private func closeQuitQuestion() {
    view.quitQuestion = nil
    view.update(from: store.state)
  }

  /// The user stays: the changes are still here, so the file written for them goes.
  private func removePreparedRecoveryFile() {
    if let file = preparedRecoveryFile {
      try? FileManager.default.removeItem(at: file)
    }
    preparedRecoveryFile = nil
  }

  /// The line being typed on the recorder on top, if one is.
  private var lineInProgress: String? {
    guard let id = store.state.app.path.ids.last, store.state.app.path[id: id]?.is(\.record) == true
    else { return nil }
    return view[screen: id].draft
  }

  /// Remembers that a key acted on screen `id` until the effects it started are over.
  private func trackEffects(_ task: StoreTask, ofKeyOn id: StackElementID) {
    guard !task.isCancelled else { return }
    screensActedOn[id, default: 0] += 1
    Task { [weak self] in
      await task.finish()
      guard let self, let count = screensActedOn[id] else { return }
      screensActedOn[id] = count > 1 ? count - 1 : nil
    }
  }

  /// Draws the app at `size`.
  public func render(size: Size) -> Canvas {
    view.prepare(for: store.state, size: size)
    return AppView.render(store.state, view, size: size, format: format)
  }

  /// Shares a standup with the team named: set by the front end when this machine has joined
  /// one.
  public var shareWithTeam: (@Sendable (Standup.ID, String) async -> Void)?

  /// Answers the question about a standup another member deleted: set by the front end.
  public var answerTeamDeletion: (@Sendable (TeamDeletionAnswer) async -> Void)?

  /// The user's answers to the team (a share, a deletion kept or let go) still being written,
  /// numbered in the order they were given.
  private var teamAnswersBeingWritten: [Int: Task<Void, Never>] = [:]
  private var teamAnswersGiven = 0

  /// Writes an answer of the user's to the team off the main actor, so that keys go on meanwhile.
  private func writeTeamAnswer(_ write: @escaping @Sendable () async -> Void) {
    teamAnswersGiven += 1
    let number = teamAnswersGiven
    teamAnswersBeingWritten[number] = Task { [weak self] in
      await write()
      self?.teamAnswersBeingWritten[number] = nil
    }
  }

  /// Waits until the user's answers to the team are written and what they changed is shown.
  ///
  /// A script waits for them before its next line, as it waits for the store's effects: they
  /// are written on a database connection of the team's, which the store does not see.
  func finishTeamAnswers() async {
    while let answer = teamAnswersBeingWritten.values.first {
      await answer.value
    }
  }

  /// Asks about the first standup another member deleted while this machine changed it, unless
  /// a question about one is up or the user put it away in this session. A question up that
  /// `questions` no longer holds was answered in another instance of the app: it closes, saying
  /// so, and the next is asked.
  public func askAboutTeamDeletions(_ questions: [TeamDeletionQuestion]) {
    if let shown = view.teamDeletionQuestion, let id = shown.standupID,
      !questions.contains(where: { $0.standup.id == id })
    {
      view.teamDeletionQuestion = nil
      tell("\(shown.title.string): another instance of Standups answered.")
    }
    guard view.teamDeletionQuestion == nil,
      let question = questions.first(where: {
        !view.teamDeletionsPutAway.contains($0.standup.id)
      })
    else { return }
    view.alertSelection = 0
    view.teamDeletionQuestion = .deletedByTeam(question.standup, by: question.deletedBy)
    onChange?()
  }

  /// Shows how this machine stands with its teams: their names (which let `t` share a standup),
  /// `line` on the status line when it needs saying, and `shared` (each shared standup's team)
  /// marked on the list and named on the standup's screen.
  public func showTeam(_ teams: [String], status line: String?, shared: [Standup.ID: String]) {
    guard view.teamNames != teams || view.team != line || view.sharedStandups != shared else {
      return
    }
    view.teamNames = teams
    view.team = line
    view.sharedStandups = shared
    onChange?()
  }

  /// Adds `sentence` to what the status bar says until the user puts it away.
  public func tell(_ sentence: String) {
    notice = notice.map { "\($0) \(sentence)" } ?? sentence
    onChange?()
  }

  /// Shows what another instance of the app saved since this one last read or wrote the data,
  /// merged with what changed here.
  public func readChangesElsewhere() {
    store.send(.readChangesElsewhere)
  }

  /// Saves what is pending and says whether the app may exit now. When changes could not be
  /// saved and the user has not yet chosen to quit anyway, writes them to a recovery file first,
  /// then asks (stay, or quit keeping that file; or, when no place took one, quit losing them)
  /// and returns `false`.
  ///
  /// - Parameter limit: How long to wait for the writes on the real clock before counting what
  ///   is not written as unsaved (another program holds the database); no limit in a script.
  public func mayQuit(waitingAtMost limit: Duration? = nil) async -> Bool {
    if !store.state.storage.pendingWrites.isEmpty {
      view.feedback =
        "Saving…" + (store.state.storage.problem.map { " \($0)" } ?? "")
      onChange?()
    }
    await flush(waitingAtMost: limit)
    view.feedback = nil
    guard hasUnsavedChanges, !isQuittingWithUnsavedChanges else { return true }
    isQuitRequested = false
    removePreparedRecoveryFile()
    let keptIn: Result<URL, RecoveryFailure>
    do throws(RecoveryFailure) {
      let file = try RecoveryFile.write(
        store.state.app.list.standups, in: recoveryPlaces, at: recoveryDate())
      preparedRecoveryFile = file
      keptIn = .success(file)
    } catch {
      keptIn = .failure(error)
    }
    view.quitQuestion = .quitWithUnsavedChanges(problem: unsavedChangesProblem, keptIn: keptIn)
    storeChanged()
    return false
  }

  /// After the user chose to stay rather than quit: the storage goes on with what waits.
  private func resumeAfterStaying() {
    store.send(.appeared)
  }

  private func storeChanged() {
    changeCount &+= 1
    let state = store.state
    let shown = view.shown
    let change = view.update(from: state)
    if view.shown != shown, !isHandlingTheUser, !isClosedByTheUser(shown, state: state.app) {
      inputGuard.screenChanged(at: now())
    }
    for id in change.pushed {
      if case .record? = state.app.path[id: id] {
        // NB: Lines typed ahead of `onTask`'s effect, which starts listening, are the meeting's.
        transcript.openMeeting()
        store.send(.app(.path(.element(id: id, action: .record(.onTask)))))
      }
    }
    if view.isQuittingAfterMeeting {
      let meeting = state.app.path.ids.last.flatMap { state.app.path[id: $0]?[case: \.record] }
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

  /// Whether what was shown went away because of the user's own key: the screen on top closed
  /// while the effects of a key on it still ran (a meeting saved, a deletion confirmed), and
  /// nothing new appeared over what it uncovered.
  private func isClosedByTheUser(_ shown: AppViewState.Shown, state: AppFeature.State) -> Bool {
    guard let screen = shown.screen else { return false }
    return screensActedOn[screen] != nil && state.path[id: screen] == nil
      && view.shown.alert == nil && view.shown.form == shown.form
  }
}
