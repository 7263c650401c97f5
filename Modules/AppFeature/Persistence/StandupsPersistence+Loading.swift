import Composable
import IdentifiedCollections
import Models
import StorageClient

extension StandupsPersistence {
  /// The app appeared: load the standups, remembering what is on screen so that changes made
  /// while they load can be told apart.
  func load(_ state: inout State) -> Effect<Action> {
    guard state.persistence.status == .notLoaded else { return .none }
    state.persistence.status = .loading
    state.persistence.changesBeforeLoad.startLoading(showing: state.standupsOnScreen)
    return loadEffect()
  }

  /// Reads the standups and sends what came of it.
  func loadEffect() -> Effect<Action> {
    .run { [loadStandups] send in
      do {
        await send(.persistence(.standupsLoaded(.success(try await loadStandups()))))
      } catch {
        await send(
          .persistence(.standupsLoaded(.failure(StorageError(error, whileDoing: .loading)))))
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
    state.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
    switch result {
    case .success(let stored) where stored.isFromNewerRelease:
      openReadOnly(stored.standups, formatVersion: stored.formatVersion, &state)
      if !changes.isEmpty {
        state.notify(.changesDiscarded)
      }
      return .none

    case .success(let stored):
      state.persistence.status = .loaded
      let merged = changes.merged(into: stored.standups, alsoShowing: state.standupsOnScreen)
      state.show(merged)
      guard merged != stored.standups else { return .none }
      state.persistence.hasUnsavedChanges = true
      return write(&state, thenWait: .seconds(1))

    case .failure(.corrupt(.unsupportedVersion(let version))):
      openReadOnly([], formatVersion: version, &state)
      state.notify(.unreadableNewerRelease(formatVersion: version))
      return .none

    case .failure(let error):
      state.persistence.status = .notSaving(error)
      state.persistence.hasUnsavedChanges = !changes.isEmpty
      state.show(changes.merged(into: [], alsoShowing: state.standupsOnScreen))
      state.notify(.loadFailed(error))
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
    state.show(standups)
  }

  /// The user chose to start again: keep the data that could not be read aside first.
  func keepUnreadableDataAside(then freshStart: AppFeature.Persistence.FreshStart)
    -> Effect<Action>
  {
    .run { [keepUnreadableData] send in
      let result: Result<String?, StorageError>
      do {
        result = .success(try await keepUnreadableData())
      } catch {
        result = .failure(StorageError(error, whileDoing: .keepingAside))
      }
      await send(.persistence(.unreadableDataKeptAside(result, then: freshStart)))
    }
  }

  /// The data that could not be read is safe (or could not be made safe).
  func unreadableDataKeptAside(
    _ result: Result<String?, StorageError>,
    then freshStart: AppFeature.Persistence.FreshStart,
    _ state: inout State
  ) -> Effect<Action> {
    guard case .notSaving = state.persistence.status else { return .none }
    switch result {
    case .success(let backup):
      state.persistence.status = .loaded
      state.persistence.backup = backup ?? state.persistence.backup
      if freshStart == .sampleData {
        state.addSampleData()
      }
      state.persistence.hasUnsavedChanges = true
      guard !state.persistence.isSaving else { return .none }
      return write(&state, thenWait: .seconds(1))
    case .failure(let error):
      state.notify(.backupFailed(error))
      return .none
    }
  }
}
