import Composable
import Dependencies
import Models
import StandupsList
public import StorageClient

extension AppFeature {
  /// How saving the standups is going.
  ///
  /// Nothing is written until the list has finished loading (either way), so an empty list
  /// never replaces the saved one. The first change after that is written at once; changes
  /// during the second after a write are coalesced into one write of the latest standups when
  /// that second is over. Only changes to the standups count: a timer tick that changes nothing
  /// else never writes or delays a write.
  public struct Persistence: Equatable, Sendable {
    /// Whether a write, or the quiet second after it, is in progress.
    public var isSaving = false

    /// Whether the standups changed since the last write began.
    public var hasUnsavedChanges = false

    /// Why the last write failed, if it did. The next change, or a flush, tries again.
    public var lastWriteError: StorageError?

    /// Creates the bookkeeping of a fresh app.
    public init() {}
  }

  enum PersistenceCancelID { case save }

  /// Runs after any action that changed the standups.
  func standupsChanged(_ state: inout State, action: Action) -> Effect<Action> {
    guard hasLoaded(state), !action.is(\.list.standupsLoaded) else { return .none }
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

  /// The app is about to exit: write the standups now if anything is unsaved, failed, or
  /// still being written.
  func flushPendingSave(_ state: inout State) -> Effect<Action> {
    let persistence = state.persistence
    guard
      hasLoaded(state),
      persistence.hasUnsavedChanges || persistence.lastWriteError != nil || persistence.isSaving
    else { return .none }
    // NB: A write in progress may not have reached the file yet; writing the same standups
    // again after it is the simple way to be sure the latest ones are on disk.
    return .concatenate(
      .cancel(id: PersistenceCancelID.save),
      write(&state, thenWait: nil)
    )
  }

  /// A write failed: tell the user on the list, keep the data in memory, and retry on the next
  /// change. The previous file is untouched.
  func saveFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteError = error
    state.list.alert = .saveFailed(error)
    return .none
  }

  private func hasLoaded(_ state: State) -> Bool {
    switch state.list.loadStatus {
    case .loaded, .failed: true
    case .notLoaded, .loading: false
    }
  }

  /// Writes the current standups, then, when `cooldown` is given, waits that long before
  /// allowing the next write.
  private func write(_ state: inout State, thenWait cooldown: Duration?) -> Effect<Action> {
    state.persistence.isSaving = true
    state.persistence.hasUnsavedChanges = false
    let standups = state.list.standups
    return .run { [clock, saveStandups] send in
      do {
        try await saveStandups(standups)
      } catch {
        await send(.saveFailed(error as? StorageError ?? .writeFailed("\(error)")))
      }
      if let cooldown {
        try await clock.sleep(for: cooldown)
      }
      await send(.saveCooldownEnded)
    }
    .cancellable(id: PersistenceCancelID.save)
  }
}
