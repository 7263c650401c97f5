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
/// front end to look (``Action/lookForChangesElsewhere``), with the changes not yet written
/// applied on top. And it holds the alerts about the data: it could not be read, it is read-only,
/// a change could not be saved.
///
/// - Stored data that could not be read is never written over: nothing is written until the
///   user has it kept aside (unchanged) and starts again, empty or with sample data.
/// - Changes that cannot be written (a read-only database, a full disk) stay in memory, and
///   ``Storage/hasChangesNotInTheDataFile`` tells a front end to offer them in a file at exit.
///
/// ```swift
/// let stored = await Result { try await storage.load() }
/// let store = Store(initialState: PersistedApp.State(stored: stored)) {
///   PersistedApp()
/// }
/// ```
public struct PersistedApp: Reducer {
  /// The app, and what its data is doing.
  public struct State: Equatable, Sendable {
    /// A message about the data, shown over the app.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The app's screens.
    public var app: AppFeature.State

    /// Where the standups' storage has got.
    public var storage: Storage

    /// The app as it was before a deletion that nothing can keep, which puts it back.
    var appBeforeRefusedDeletion: AppFeature.State?

    /// Creates the state; most code starts from ``init(app:stored:)``.
    public init(
      alert: AlertState<Action.Alert>? = nil,
      app: AppFeature.State = AppFeature.State(),
      storage: Storage = Storage(status: .writable)
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
    case changesElsewhereFound(ChangesElsewhere)
    /// A change edited a standup that another instance had deleted: nothing of it was written.
    case changedStandupWasDeletedElsewhere(Standup.ID)
    /// The app is about to exit: write what is pending now, and wait for it.
    case flushPendingWrites
    /// Another instance may have committed changes (a front end asks from time to time).
    case lookForChangesElsewhere
    /// The front end showed ``Storage/notice``, and the user put it away.
    case noticeDismissed
    case unreadableDataKeptAside(Result<String?, StorageError>, then: FreshStart)
    case writeFailed(StorageError)
    case written

    /// The buttons of the alerts about the data.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case keepDeletedStandup(Standup.ID)
      case keepUnreadableDataAside(then: FreshStart)
      case letDeletedStandupGo(Standup.ID)
    }
  }

  /// How to start again once the data that could not be read is kept aside.
  public enum FreshStart: Equatable, Sendable {
    /// With the sample standups, beside anything added meanwhile.
    case sampleData
    /// With what is on screen (nothing, unless something was added meanwhile).
    case empty
  }

  enum CancelID { case writing }

  @Dependency(\.storageClient.apply) var applyChange
  @Dependency(\.storageClient.changesElsewhere) var changesElsewhere
  @Dependency(\.storageClient.discardMeetingInProgress) var discardMeetingInProgress
  @Dependency(\.storageClient.keepUnreadableDataAside) var keepUnreadableData
  @Dependency(\.date.now) var now
  @Dependency(\.storageClient.saveMeetingInProgress) var saveMeetingInProgress

  /// Creates the reducer.
  public init() {}

  /// The app, then what its actions mean for the data: changes written, meetings in progress
  /// written as they go, and alerts held back while the user answers another.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      // NB: Where nothing is written, a change stays in memory for a recovery file, which can
      // carry no deletion: a deletion is refused, and the app put back as it was before it.
      state.appBeforeRefusedDeletion = nil
      if case .app(let appAction) = action, appAction.asksToDelete, !state.storage.isWritable {
        state.appBeforeRefusedDeletion = state.app
      }
      return .none
    }
    Scope(state: \.app, action: \.app) { AppFeature() }
    Reduce { state, action in
      if let before = state.appBeforeRefusedDeletion {
        state.app = before
        state.appBeforeRefusedDeletion = nil
        state.alert = .deletionRefused(state.storage.problem)
        return .none
      }
      switch action {
      case .alert(.presented(.keepDeletedStandup(let id))):
        return keepDeletedStandup(id, &state)

      case .alert(.presented(.keepUnreadableDataAside(let freshStart))):
        return keepUnreadableDataAside(then: freshStart)

      case .alert(.presented(.letDeletedStandupGo(let id))):
        return letDeletedStandupGo(id, &state)

      case .alert(.dismiss):
        // NB: An alert put away without an answer takes its harmless one: a standup deleted
        // elsewhere is kept.
        return .merge(state.storage.deletedElsewhere.map { keepDeletedStandup($0, &state) })

      case .app(.delegate(.standupsChanged(let change))):
        return record(change, &state)

      case .app:
        return .none

      case .changedStandupWasDeletedElsewhere(let id):
        return deletedElsewhere(id, wasJustChanged: true, &state)

      case .changesElsewhereFound(let changes):
        return show(changes, &state)

      case .flushPendingWrites:
        return flush(&state)

      case .lookForChangesElsewhere:
        return lookForChangesElsewhere(state)

      case .noticeDismissed:
        state.storage.notice = nil
        return .none

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
      let effect = followMeetingsInProgress(after: action, &state)
      state.showWaitingAlert()
      return effect
    }
  }
}
