import Composable
import Dependencies
import Models
import StandupsList
import StorageClient

extension AppFeature {
  /// How saving the standups is going.
  ///
  /// The first change after loading is written at once; changes during the second after a
  /// write are coalesced into one write of the latest standups when that second is over. Only
  /// changes to the standups count: a timer tick that changes nothing else never writes or
  /// delays a write.
  public struct Persistence: Equatable, Sendable {
    /// Whether loading has finished (either way); nothing is written before, so an empty list
    /// never replaces the saved one.
    public var isLoaded = false

    /// Whether a write, or the quiet second after it, is in progress.
    public var isSaving = false

    /// Whether the standups changed since the last write began.
    public var hasUnsavedChanges = false

    /// Whether the last write failed. The next change, or a flush, tries again.
    public var lastWriteFailed = false

    /// Creates the bookkeeping of a fresh app.
    public init() {}
  }

  enum PersistenceCancelID { case save }

  /// Runs after any action that changed the standups.
  func standupsChanged(_ state: inout State, action: Action) -> Effect<Action> {
    guard state.persistence.isLoaded, !action.is(\.list.standupsLoaded) else { return .none }
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteFailed = false
    guard !state.persistence.isSaving else { return .none }
    return write(&state, thenWait: .seconds(1))
  }

  /// The quiet second after a write is over: write what changed meanwhile.
  func saveCooldownEnded(_ state: inout State) -> Effect<Action> {
    state.persistence.isSaving = false
    guard state.persistence.hasUnsavedChanges, !state.persistence.lastWriteFailed else {
      return .none
    }
    return write(&state, thenWait: .seconds(1))
  }

  /// The app is about to exit: write unsaved changes now.
  func flushPendingSave(_ state: inout State) -> Effect<Action> {
    guard
      state.persistence.isLoaded,
      state.persistence.hasUnsavedChanges || state.persistence.lastWriteFailed
    else { return .none }
    return .concatenate(
      .cancel(id: PersistenceCancelID.save),
      write(&state, thenWait: nil)
    )
  }

  /// A write failed: tell the user on the list, keep the data in memory, and retry on the next
  /// change. The previous file is untouched.
  func saveFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteFailed = true
    // NB: An open add sheet holds unsaved input; the failure stays recorded and is shown the
    // next time a write fails.
    if !(state.list.destination?.is(\.add) ?? false) {
      state.list.destination = .alert(.saveFailed(error))
    }
    return .none
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
