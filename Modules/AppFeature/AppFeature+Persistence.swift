public import Composable
import Dependencies
import IdentifiedCollections
import Models
import StandupsList
public import StorageClient

// Loading and saving the standups: one policy, in one place, because each half decides what
// the other may do. The list only shows what this file puts in it.
//
// - Nothing the user does while the standups load is lost: changes made meanwhile (a standup
//   added, an edit, a meeting recorded on a deep-linked screen) are merged into what loads.
// - Stored data that could not be read is never written over. The user may have it kept aside
//   as a backup and start again (empty or with sample data); until then nothing is written.
// - Data from a newer release is shown read-only: changes are refused, and nothing is written.
// - The first change after loading is written at once, later ones at most once a second, always
//   the latest standups; each write has a revision, so one scheduled earlier never lands after
//   a later one (a flush is final).

extension AppFeature {
  /// Where loading and saving the standups have got.
  public struct Persistence: Equatable, Sendable {
    /// What the app may do with its data.
    public var status = Status.notLoaded

    /// Whether a write, or the quiet second after it, is in progress.
    public var isSaving = false

    /// Whether the standups changed since the last write began.
    public var hasUnsavedChanges = false

    /// Why the last write failed, if it did. The next change, or a flush, tries again.
    public var lastWriteError: StorageError?

    /// Where the data that could not be read was kept, once it was.
    public var backup: String?

    /// Changes made while the standups were loading, merged into them when they land.
    public var changesBeforeLoad = ChangesBeforeLoad()

    /// Alerts held back while the user answers another one, oldest first.
    public var waitingAlerts: [AlertState<Action.Alert>] = []

    /// The revision of the last write started; each write has a higher one, so that a write
    /// started earlier never lands after it.
    public var revision = 0

    /// Creates the bookkeeping of a fresh app.
    public init() {}

    /// What the app may do with its data.
    public enum Status: Equatable, Sendable {
      /// Loading has not started.
      case notLoaded
      /// Loading; changes made meanwhile are merged into what loads.
      case loading
      /// Loaded (or there was nothing to load): changes are saved.
      case loaded
      /// The stored data could not be read. Changes are kept in memory and nothing is written
      /// until the user has the data kept aside.
      case notSaving(StorageError)
      /// The stored data comes from a newer release: it is shown, changes are refused, and
      /// nothing is written.
      case readOnly(formatVersion: Int)
    }

    /// How to start again once the data that could not be read is kept aside.
    public enum FreshStart: Equatable, Sendable {
      /// With the sample standups, beside anything added meanwhile.
      case sampleData
      /// With what is on screen (nothing, unless something was added meanwhile).
      case empty
    }

    /// Whether changes to the standups are written.
    public var isWritable: Bool {
      status == .loaded
    }

    /// A line for a status bar: why changes are not being saved, or why the last save failed.
    /// `nil` when all is well.
    public var problem: String? {
      switch status {
      case .notSaving(let error):
        return "Changes are not being saved. \(error)"
      case .readOnly:
        return "Read-only: this file is from a newer release of Standups."
      case .notLoaded, .loading, .loaded:
        return lastWriteError.map(\.description)
      }
    }
  }

  enum PersistenceCancelID { case save }

  // MARK: - Loading

  /// The app appeared: load the standups, remembering what is on screen so that changes made
  /// while they load can be told apart.
  func load(_ state: inout State) -> Effect<Action> {
    guard state.persistence.status == .notLoaded else { return .none }
    state.persistence.status = .loading
    state.persistence.changesBeforeLoad.startLoading(showing: standupsOnScreen(state))
    return loadEffect()
  }

  /// Reads the standups and sends what came of it.
  private func loadEffect() -> Effect<Action> {
    .run { [loadStandups] send in
      do {
        await send(.standupsLoaded(.success(try await loadStandups())))
      } catch {
        await send(.standupsLoaded(.failure(StorageError(error, whileDoing: .loading))))
      }
    }
  }

  /// The standups loaded, or could not be: merge what happened meanwhile, and put the result on
  /// the list and on every screen. A second result (a flush reads the file again, not to wait
  /// for the first) changes nothing.
  func standupsLoaded(
    _ result: Result<StoredStandups, StorageError>,
    _ state: inout State
  ) -> Effect<Action> {
    guard state.persistence.status == .loading else { return .none }
    let changes = state.persistence.changesBeforeLoad
    state.persistence.changesBeforeLoad = ChangesBeforeLoad()
    switch result {
    case .success(let stored) where stored.isFromNewerRelease:
      openReadOnly(stored.standups, formatVersion: stored.formatVersion, &state)
      if !changes.isEmpty {
        notify(.changesDiscarded, &state)
      }
      return .none

    case .success(let stored):
      state.persistence.status = .loaded
      let merged = changes.merged(into: stored.standups, alsoShowing: standupsOnScreen(state))
      show(merged, &state)
      guard merged != stored.standups else { return .none }
      state.persistence.hasUnsavedChanges = true
      return write(&state, thenWait: .seconds(1))

    case .failure(.corrupt(.unsupportedVersion(let version))):
      openReadOnly([], formatVersion: version, &state)
      notify(.unreadableNewerRelease(formatVersion: version), &state)
      return .none

    case .failure(let error):
      state.persistence.status = .notSaving(error)
      state.persistence.hasUnsavedChanges = !changes.isEmpty
      show(changes.merged(into: [], alsoShowing: standupsOnScreen(state)), &state)
      notify(.loadFailed(error), &state)
      return .none
    }
  }

  /// Shows `standups` read-only: screens of any other standup (added or deep-linked while they
  /// loaded) are closed, since nothing about them can be kept.
  private func openReadOnly(
    _ standups: IdentifiedArrayOf<Standup>,
    formatVersion: Int,
    _ state: inout State
  ) {
    state.persistence.status = .readOnly(formatVersion: formatVersion)
    state.path.removeAll { standups[id: $0.standup.id] == nil }
    show(standups, &state)
  }

  /// Puts `standups` on the list and on every screen that shows one of them.
  private func show(_ standups: IdentifiedArrayOf<Standup>, _ state: inout State) {
    state.list.standups = standups
    for id in state.path.ids {
      guard let shown = state.path[id: id]?.standup, let standup = standups[id: shown.id],
        standup != shown
      else { continue }
      state.path[id: id]?.standup = standup
    }
  }

  /// Every standup the list and the stack show, the list's copy first.
  func standupsOnScreen(_ state: State) -> IdentifiedArrayOf<Standup> {
    var standups = state.list.standups
    for element in state.path where standups[id: element.standup.id] == nil {
      standups.append(element.standup)
    }
    return standups
  }

  // MARK: - Keeping unreadable data aside

  /// The user chose to start again: keep the data that could not be read aside first.
  func keepUnreadableDataAside(then freshStart: Persistence.FreshStart) -> Effect<Action> {
    .run { [keepUnreadableData] send in
      do {
        await send(
          .unreadableDataKeptAside(.success(try await keepUnreadableData()), then: freshStart))
      } catch {
        await send(
          .unreadableDataKeptAside(
            .failure(StorageError(error, whileDoing: .keepingAside)),
            then: freshStart
          )
        )
      }
    }
  }

  /// The data that could not be read is safe (or could not be made safe).
  func unreadableDataKeptAside(
    _ result: Result<String?, StorageError>,
    then freshStart: Persistence.FreshStart,
    _ state: inout State
  ) -> Effect<Action> {
    guard case .notSaving = state.persistence.status else { return .none }
    switch result {
    case .success(let backup):
      state.persistence.status = .loaded
      state.persistence.backup = backup ?? state.persistence.backup
      if freshStart == .sampleData {
        addSampleData(&state)
      }
      state.persistence.hasUnsavedChanges = true
      guard !state.persistence.isSaving else { return .none }
      return write(&state, thenWait: .seconds(1))
    case .failure(let error):
      notify(.backupFailed(error), &state)
      return .none
    }
  }

  /// Adds the sample standups that are not on the list yet, and returns them.
  @discardableResult
  func addSampleData(_ state: inout State) -> [Standup] {
    let added = [Standup.mock, .engineeringMock, .productMock].filter {
      state.list.standups[id: $0.id] == nil
    }
    state.list.standups.append(contentsOf: added)
    return added
  }

  // MARK: - Saving

  /// Runs after any action that changed the list's standups.
  func standupsChanged(_ state: inout State, action: Action) -> Effect<Action> {
    guard !action.is(\.standupsLoaded), !action.is(\.unreadableDataKeptAside) else {
      return .none
    }
    if case .notSaving = state.persistence.status {
      // NB: Kept in memory only, which quitting must not lose without asking.
      state.persistence.hasUnsavedChanges = true
    }
    guard state.persistence.isWritable else { return .none }
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteError = nil
    guard !state.persistence.isSaving else { return .none }
    return write(&state, thenWait: .seconds(1))
  }

  /// The quiet second after a write is over: write what changed meanwhile.
  func saveCooldownEnded(_ state: inout State) -> Effect<Action> {
    state.persistence.isSaving = false
    guard state.persistence.hasUnsavedChanges, state.persistence.lastWriteError == nil else {
      return .none
    }
    return write(&state, thenWait: .seconds(1))
  }

  /// The app is about to exit: write the standups now if anything is unsaved, failed, or still
  /// being written. The write is final: one started earlier cannot land after it. While the
  /// standups are still loading, the flush reads them too, merges what changed meanwhile, and
  /// then writes, so that quitting during a slow load loses nothing.
  func flushPendingSave(_ state: inout State) -> Effect<Action> {
    let persistence = state.persistence
    switch persistence.status {
    case .notLoaded:
      return .concatenate(load(&state), .send(.flushPendingSave))
    case .loading:
      return .concatenate(loadEffect(), .send(.flushPendingSave))
    case .notSaving, .readOnly:
      return .none
    case .loaded:
      guard
        persistence.hasUnsavedChanges || persistence.lastWriteError != nil
          || persistence.isSaving
      else { return .none }
      return .concatenate(
        .cancel(id: PersistenceCancelID.save),
        write(&state, thenWait: nil)
      )
    }
  }

  /// A write failed: tell the user (once any alert they are answering is closed), keep the
  /// data in memory, and retry on the next change. The previous data is untouched.
  func saveFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteError = error
    notify(.saveFailed(error), &state)
    return .none
  }

  /// Writes the current standups as a new revision, then, when `cooldown` is given, waits that
  /// long before allowing the next write.
  private func write(_ state: inout State, thenWait cooldown: Duration?) -> Effect<Action> {
    state.persistence.isSaving = true
    state.persistence.hasUnsavedChanges = false
    state.persistence.revision += 1
    let (standups, revision) = (state.list.standups, state.persistence.revision)
    return .run { [clock, saveStandups] send in
      do {
        try await saveStandups(standups, revision)
      } catch {
        await send(.saveFailed(StorageError(error, whileDoing: .saving)))
      }
      if let cooldown {
        try await clock.sleep(for: cooldown)
      }
      await send(.saveCooldownEnded)
    }
    .cancellable(id: PersistenceCancelID.save)
  }

  // MARK: - Alerts

  /// Shows `alert`, or holds it back until the alert the user is answering closes: a message
  /// about the data never replaces a question.
  func notify(_ alert: AlertState<Action.Alert>, _ state: inout State) {
    guard isAnsweringAlert(state) else {
      state.alert = alert
      return
    }
    // NB: The same message twice in a row (two failed writes) is shown once.
    if state.persistence.waitingAlerts.last != alert {
      state.persistence.waitingAlerts.append(alert)
    }
  }

  /// Shows the oldest alert held back, once no other alert is up.
  func showWaitingAlert(_ state: inout State) {
    guard !state.persistence.waitingAlerts.isEmpty, !isAnsweringAlert(state) else { return }
    state.alert = state.persistence.waitingAlerts.removeFirst()
  }

  private func isAnsweringAlert(_ state: State) -> Bool {
    state.alert != nil || state.list.alert != nil || state.path.contains(where: \.hasAlert)
  }
}

extension StorageError {
  /// What the app was doing with its storage.
  enum Operation {
    case keepingAside
    case loading
    case saving
  }

  /// The error a storage client threw; an error of another type (from a client that breaks
  /// its contract) is reported as a failure of what was being done.
  init(_ error: any Error, whileDoing operation: Operation) {
    if let error = error as? StorageError {
      self = error
      return
    }
    let problem = FileProblem(
      path: "",
      reason: .other("the storage reported \(type(of: error))"),
      technicalDetail: "\(error)"
    )
    switch operation {
    case .keepingAside: self = .backupFailed(problem)
    case .loading: self = .unreadable(problem)
    case .saving: self = .writeFailed(problem)
    }
  }
}

extension AlertState where Action == AppFeature.Action.Alert {
  /// Tells the user that the saved standups could not be read, and offers to keep them aside
  /// and start again.
  public static func dataFailedToLoad(_ error: StorageError) -> Self {
    AlertState {
      TextState("Data failed to load")
    } actions: {
      ButtonState(action: .keepUnreadableDataAside(then: .sampleData)) {
        TextState("Keep it aside, load sample data")
      }
      ButtonState(action: .keepUnreadableDataAside(then: .empty)) {
        TextState("Keep it aside, start empty")
      }
      ButtonState(role: .cancel) {
        TextState("Continue without saving")
      }
    } message: {
      TextState(
        """
        \(error)

        Nothing will be written over it. To start again, the app can keep it aside as a backup \
        beside it first.
        """
      )
    }
  }

  /// The alert for standups that failed to load: data that could not be read offers to keep it
  /// aside and start again; a path that holds no data file only says so.
  public static func loadFailed(_ error: StorageError) -> Self {
    guard case .notADataFile = error else { return .dataFailedToLoad(error) }
    return .notADataFile(error)
  }

  /// Tells the user that what is at the data file's path is not a file (a folder, a device),
  /// which the app leaves alone: it runs without saving.
  public static func notADataFile(_ error: StorageError) -> Self {
    AlertState {
      TextState("Standups cannot be saved")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Continue without saving")
      }
    } message: {
      TextState(
        """
        \(error)

        Your changes stay here until you quit; the app then offers to keep them in a recovery \
        file. To save them, start Standups with --data-file and the path of a file.
        """
      )
    }
  }

  /// Tells the user that the data that could not be read could not be kept aside either.
  public static func backupFailed(_ error: StorageError) -> Self {
    notice(
      "Nothing was saved",
      message: """
        \(error)

        Your changes are still here, and the saved data is untouched.
        """
    )
  }

  /// Tells the user that the standups could not be saved, and that nothing was lost yet.
  public static func saveFailed(_ error: StorageError) -> Self {
    notice(
      "Changes not saved",
      message: """
        \(error)

        Your changes are still here. Saving will be tried again with your next change.
        """
    )
  }

  /// Tells the user that the data comes from a newer release this one cannot read.
  public static func unreadableNewerRelease(formatVersion: Int) -> Self {
    notice(
      "Saved by a newer release",
      message: """
        The standups were saved by a newer release of Standups (format version \
        \(formatVersion)), which this release cannot read. They are left untouched, and no \
        changes are made. Open them with the newer release.
        """
    )
  }

  /// Tells the user that changes made while the standups loaded were dropped, because the
  /// data turned out to be read-only.
  public static var changesDiscarded: Self {
    notice(
      "Changes not kept",
      message: """
        The standups were saved by a newer release of Standups, so this release shows them \
        read-only. The changes made while they loaded were discarded.
        """
    )
  }

  /// Tells the user that a change was refused because the data is read-only.
  public static var changesRefused: Self {
    notice(
      "This data is read-only",
      message: """
        The standups were saved by a newer release of Standups. This release can show them, \
        but saving them would lose what the newer release added, so changes are not made. \
        Open them with the newer release to change them.
        """
    )
  }

  /// A notice the user can only acknowledge: a title, a message and "OK".
  private static func notice(_ title: String, message: String) -> Self {
    AlertState {
      TextState(title)
    } actions: {
      ButtonState(role: .cancel) {
        TextState("OK")
      }
    } message: {
      TextState(message)
    }
  }
}
