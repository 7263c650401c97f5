public import AppFeature
public import CasePaths
public import Composable
import Dependencies
public import Models
public import StorageClient

/// The app with its standups kept: ``AppFeature`` wrapped by the one policy that loads, saves and
/// watches the standups, and tells the user about their data.
///
/// The app's navigation knows nothing of storage. It announces every change the user makes to
/// the standups (`delegate(.standupsChanged(_:))`); this reducer writes each one, in order, as
/// one transaction that writes only what changed. It writes a meeting being recorded as it goes,
/// so a crash loses none of it. It shows what other instances of the app commit, asked by the
/// front end to read them (``Action/readChangesElsewhere``), with the changes not yet written
/// applied on top. And it holds the alerts about the data: it could not be read, it is read-only,
/// a change could not be saved, a value of the user's was replaced by another's save.
///
/// - Stored data that could not be read is never written over: nothing is written until the
///   user has it kept aside (unchanged) and starts again, empty or with sample data.
/// - A write that fails for a while (another program holds the database, the disk is full) is
///   tried again on its own, less and less often, until it lands; the writes behind it wait.
///   One that can never land as it is (its standup cannot be read) is set aside, and the rest
///   go on.
/// - Changes that cannot be written stay in memory, and ``StorageState/hasChangesNotInTheDataFile``
///   tells a front end to offer them in a file at exit. Where nothing is written, a deletion is
///   refused (``AppFeature/AppFeature/State/deletions``).
/// - Messages wait while the user answers a question or records a meeting: nothing comes
///   between the user's keys and the transcript; the status line says what is wrong meanwhile.
///
/// ```swift
/// let stored = await Result { try await storage.load() }
/// let store = Store(initialState: PersistedApp.State(stored: stored)) {
///   PersistedApp()
/// }
/// store.send(.appeared)
/// ```
public struct PersistedApp: Reducer {
  /// The app, and what its data is doing.
  public struct State: Equatable, Sendable {
    /// A message about the data, shown over the app.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The app's screens.
    public var app: AppFeature.State

    /// Where the standups' storage has got.
    public var storage: StorageState

    /// Creates the state; most code starts from ``init(app:stored:)``.
    public init(
      alert: AlertState<Action.Alert>? = nil,
      app: AppFeature.State = AppFeature.State(),
      storage: StorageState = StorageState(status: .writable)
    ) {
      self.alert = alert
      self.app = app
      self.storage = storage
    }
  }

  /// What happens to the app and its data.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case app(AppFeature.Action)
    /// The front end shows the app: do what waits on the storage (open, or load again).
    case appeared
    case changesElsewhereFound(ChangesElsewhere)
    /// A change edited a standup that another instance had deleted: nothing of it was written.
    case changedStandupWasDeletedElsewhere(Standup.ID)
    /// The app is about to exit: write what is pending now, and wait for it.
    case flushPendingWrites
    case loaded(Result<StoredStandups, StorageError>)
    /// Another instance may have committed changes (a front end asks from time to time).
    case readChangesElsewhere
    /// Reading them failed: another program holds the database, for a moment or for good.
    case changesElsewhereReadFailed
    /// The front end showed ``StorageState/notice``, and the user put it away.
    case noticeDismissed
    case openingFinished(OpeningReport)
    /// A change renamed attendees another instance had removed: they were kept.
    case renamedAttendeesWereKept(Standup.ID, [Attendee])
    /// The wait before trying a failed write again is over.
    case retryDelayEnded
    case unreadableDataKeptAside(Result<String?, StorageError>, then: FreshStart)
    case writeFailed(StorageError)
    case written

    /// The buttons of the alerts about the data.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case keepDeletedStandup(Standup.ID)
      case keepUnreadableDataAside(then: FreshStart)
      case leaveReplacedValue(ReplacedValue.ID)
      case letAttendeeGo(Attendee.ID, from: Standup.ID)
      case letDeletedStandupGo(Standup.ID)
      case putReplacedValueBack(ReplacedValue.ID)
    }
  }

  /// How to start again once the data that could not be read is kept aside.
  public enum FreshStart: Equatable, Sendable {
    /// With the sample standups, beside anything added meanwhile.
    case sampleData
    /// With what is on screen (nothing, unless something was added meanwhile).
    case empty
  }

  enum CancelID {
    case retry
    case writing
  }

  @Dependency(\.storageClient.apply) var applyChange
  @Dependency(\.storageClient.changesElsewhere) var changesElsewhere
  @Dependency(\.continuousClock) var clock
  @Dependency(\.storageClient.discardMeetingInProgress) var discardMeetingInProgress
  @Dependency(\.storageClient.finishOpening) var finishOpening
  @Dependency(\.storageClient.keepUnreadableDataAside) var keepUnreadableData
  @Dependency(\.storageClient.load) var load
  @Dependency(\.date.now) var now
  @Dependency(\.storageClient.putAwayReplacedValue) var putAwayReplacedValue
  @Dependency(\.storageClient.saveMeetingInProgress) var saveMeetingInProgress
  @Dependency(\.uuid) var uuid

  /// Creates the reducer.
  public init() {}

  /// The app, then what its actions mean for the data: changes written, meetings in progress
  /// written as they go, and alerts held back while the user answers another or records.
  public var body: some ReducerOf<Self> {
    Scope(state: \.app, action: \.app) { AppFeature() }
    Reduce { state, action in
      switch action {
      case .alert(.presented(.keepDeletedStandup(let id))):
        return keepDeletedStandup(id, &state)

      case .alert(.presented(.keepUnreadableDataAside(let freshStart))):
        return keepUnreadableDataAside(then: freshStart)

      case .alert(.presented(.leaveReplacedValue(let id))):
        return putAway(id, restoring: false, &state)

      case .alert(.presented(.letAttendeeGo(let attendeeID, let standupID))):
        return letAttendeeGo(attendeeID, from: standupID, &state)

      case .alert(.presented(.letDeletedStandupGo(let id))):
        return letDeletedStandupGo(id, &state)

      case .alert(.presented(.putReplacedValueBack(let id))):
        return putAway(id, restoring: true, &state)

      case .alert(.dismiss):
        return answerHarmlessly(&state)

      case .app(.delegate(.deletionRefused)):
        state.notify(.deletionRefused(state.storage.problem))
        return .none

      case .app(.delegate(.standupsChanged(let change))):
        return record(change, &state)

      case .app:
        return .none

      case .appeared:
        return resume(&state)

      case .changedStandupWasDeletedElsewhere(let id):
        return deletedElsewhere(id, wasJustChanged: true, &state)

      case .changesElsewhereFound(let changes):
        return show(changes, &state)

      case .flushPendingWrites:
        return flush(&state)

      case .loaded(let result):
        return loaded(result, &state)

      case .readChangesElsewhere:
        return readChangesElsewhere(state)

      case .changesElsewhereReadFailed:
        state.storage.failedReadsInARow += 1
        return .none

      case .noticeDismissed:
        state.storage.notice = nil
        return .none

      case .openingFinished(let report):
        return openingFinished(report, &state)

      case .renamedAttendeesWereKept(let id, let attendees):
        return renamedAttendeesWereKept(attendees, of: id, &state)

      case .retryDelayEnded:
        return writeNext(&state)

      case .unreadableDataKeptAside(let result, let freshStart):
        return unreadableDataKeptAside(result, then: freshStart, &state)

      case .writeFailed(let error):
        return writeFailed(error, &state)

      case .written:
        return written(&state)
      }
    }
    .ifLet(\.$alert, action: \.alert)
    Reduce { state, action in
      state.keepDeletionsInStep()
      let effect = followMeetingsInProgress(after: action, &state)
      state.showWaitingAlert()
      return effect
    }
  }
}

extension PersistedApp.State {
  /// Lets the app delete only where deletions are kept: a recovery file cannot carry one.
  mutating func keepDeletionsInStep() {
    app.deletions = storage.isWritable ? .allowed : .refused
  }

  /// Shows `alert`, or holds it back until the alert the user is answering closes, or the
  /// meeting the user records ends: a message about the data never replaces a question, nor
  /// comes between the user's keys and the transcript.
  mutating func notify(_ alert: AlertState<PersistedApp.Action.Alert>) {
    guard isAnsweringAlert || app.isRecordingAMeeting else {
      self.alert = alert
      return
    }
    // NB: The same message twice in a row (two failed writes) is shown once, whether the first
    // waits or is on screen.
    if (storage.waitingAlerts.last ?? self.alert) != alert {
      storage.waitingAlerts.append(alert)
    }
  }

  /// Shows the oldest alert held back, once no other alert is up and no meeting is recorded.
  mutating func showWaitingAlert() {
    guard !storage.waitingAlerts.isEmpty, !isAnsweringAlert, !app.isRecordingAMeeting else {
      return
    }
    alert = storage.waitingAlerts.removeFirst()
  }

  private var isAnsweringAlert: Bool {
    alert != nil || app.list.alert != nil || app.path.contains(where: \.hasAlert)
  }
}
