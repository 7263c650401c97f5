import CasePaths
import Composable
import Dependencies
import StorageClient

/// Loading and saving the standups: one policy, in one place, because each half decides what
/// the other may do. It wraps the app's screens so that it sees every change they make to the
/// standups; the list only shows what it puts there.
///
/// - Nothing the user does while the standups load is lost: changes made meanwhile (a standup
///   added, an edit, a meeting recorded on a deep-linked screen) are merged into what loads.
/// - Stored data that could not be read is never written over. The user may have it kept aside
///   as a backup and start again (empty or with sample data); until then nothing is written. A
///   path that holds no data file (a folder, a device) is never written or moved.
/// - Data from a newer release is shown read-only: changes are refused, and nothing is written.
/// - The first change after loading is written at once, later ones at most once a second, always
///   the latest standups; each write has a revision, so one scheduled earlier never lands after
///   a later one (a flush is final).
/// - Another instance's changes are never written over: when the stored standups changed since
///   this app last read or wrote them, they are merged field by field with this app's changes
///   (which win where both changed the same field), shown, and saved.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   StandupsPersistence {
///     Scope(state: \.list, action: \.list) { StandupsList() }
///     Reduce { state, action in … }
///   }
/// }
/// ```
struct StandupsPersistence<Screens: Reducer<AppFeature.State, AppFeature.Action>>: Reducer {
  typealias State = AppFeature.State
  typealias Action = AppFeature.Action

  let screens: Screens

  @Dependency(\.continuousClock) var clock
  @Dependency(\.storageClient.keepUnreadableData) var keepUnreadableData
  @Dependency(\.storageClient.load) var loadStandups
  @Dependency(\.storageClient.save) var saveStandups
  @Dependency(\.storageClient.storedChange) var storedChange

  /// Wraps the screens whose changes to the standups it saves.
  init(@ReducerBuilder<State, Action> screens: () -> Screens) {
    self.screens = screens()
  }

  var body: some ReducerOf<Self> {
    CombineReducers {
      screens
      Reduce { state, action in
        switch action {
        case .alert(.presented(.keepUnreadableDataAside(let freshStart))):
          return keepUnreadableDataAside(then: freshStart)
        case .onTask:
          return load(&state)
        case .persistence(let action):
          return reduce(&state, action)
        case .alert, .cancelEditButtonTapped, .confirmAddButtonTapped, .destination,
          .dismissAddButtonTapped, .doneEditingButtonTapped, .list, .path:
          return .none
        }
      }
    }
    .onChange(of: \.list.standups) { _, _ in
      Reduce { state, action in standupsChanged(&state, action: action) }
    }
    Reduce { state, _ in
      state.showWaitingAlert()
      return .none
    }
  }

  private func reduce(_ state: inout State, _ action: AppFeature.PersistenceAction)
    -> Effect<Action>
  {
    switch action {
    case .flushPendingSave:
      return flushPendingSave(&state)
    case .lookForChangesElsewhere:
      return lookForChangesElsewhere(state)
    case .saveCooldownEnded:
      return saveCooldownEnded(&state)
    case .saveFailed(let error):
      return saveFailed(error, &state)
    case .standupsLoaded(let result):
      return standupsLoaded(result, &state)
    case .storedDataChanged(let change, let revision):
      return storedDataChanged(change, revision: revision, &state)
    case .unreadableDataKeptAside(let result, let freshStart):
      return unreadableDataKeptAside(result, then: freshStart, &state)
    }
  }
}

extension AppFeature {
  /// Where persistence's effects are cancelled.
  enum PersistenceCancelID { case save }
}
