import Composable
import IdentifiedCollections
import Models
import StorageClient

extension StandupsPersistence {
  /// Runs after any action that changed the list's standups.
  func standupsChanged(_ state: inout State, action: Action) -> Effect<Action> {
    guard !action.is(\.persistence.standupsLoaded),
      !action.is(\.persistence.unreadableDataKeptAside),
      !action.is(\.persistence.storedDataChanged)
    else { return .none }
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
      return .concatenate(load(&state), .send(.persistence(.flushPendingSave)))
    case .loading:
      return .concatenate(loadEffect(), .send(.persistence(.flushPendingSave)))
    case .notSaving, .readOnly:
      return .none
    case .loaded:
      guard persistence.hasChangesNotInTheDataFile || persistence.isSaving else { return .none }
      return .concatenate(
        .cancel(id: AppFeature.PersistenceCancelID.save),
        write(&state, thenWait: nil)
      )
    }
  }

  /// A write failed: tell the user (once any alert they are answering is closed), keep the
  /// data in memory, and retry on the next change. The previous data is untouched.
  func saveFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.persistence.hasUnsavedChanges = true
    state.persistence.lastWriteError = error
    state.notify(.saveFailed(error))
    return .none
  }

  /// Asks the storage whether another instance changed the standups; never while a write is
  /// under way, which finds out itself.
  func lookForChangesElsewhere(_ state: State) -> Effect<Action> {
    guard state.persistence.isWritable, !state.persistence.isSaving else { return .none }
    let revision = state.persistence.revision
    return .run { [storedChange] send in
      guard let change = try? await storedChange() else { return }
      await send(.persistence(.storedDataChanged(change, revision: revision)))
    }
  }

  /// The stored standups changed behind the app's back (another instance saved): merge them
  /// with what changed here since the app last read or wrote them, show the result, and save it
  /// as replacing what is stored now.
  ///
  /// The merge is field by field, this app's changes winning where both changed the same field;
  /// a standup added on either side is kept, one deleted elsewhere stays deleted unless it was
  /// changed here, and a standup whose meeting is being recorded here is kept. Screens of
  /// standups deleted elsewhere close.
  func storedDataChanged(
    _ change: StoredChange,
    revision: Int,
    _ state: inout State
  ) -> Effect<Action> {
    // NB: A later write is under way, made from more than this report's sender knew; the
    // storage reports the change to it too.
    guard revision == state.persistence.revision, state.persistence.isWritable else {
      return .none
    }
    var merged = change.stored.applyingChanges(from: change.known, to: state.list.standups)
    for element in state.path {
      if case .record(let meeting) = element, merged[id: meeting.standup.id] == nil,
        let standup = state.list.standups[id: meeting.standup.id]
      {
        merged.append(standup)
      }
    }
    state.path.removeAll { merged[id: $0.standup.id] == nil }
    state.show(merged)
    state.persistence.hasUnsavedChanges = true
    return write(&state, thenWait: nil, replacing: change.stored)
  }

  /// Writes the current standups as a new revision, then, when `cooldown` is given, waits that
  /// long before allowing the next write. `stored` is what a merge found stored, which the
  /// write may replace.
  func write(
    _ state: inout State,
    thenWait cooldown: Duration?,
    replacing stored: IdentifiedArrayOf<Standup>? = nil
  ) -> Effect<Action> {
    state.persistence.isSaving = true
    state.persistence.hasUnsavedChanges = false
    state.persistence.revision += 1
    let (standups, revision) = (state.list.standups, state.persistence.revision)
    return .run { [clock, saveStandups] send in
      do {
        if case .storedDataChanged(let change) = try await saveStandups(standups, stored, revision)
        {
          await send(.persistence(.storedDataChanged(change, revision: revision)))
          return
        }
      } catch {
        await send(.persistence(.saveFailed(StorageError(error, whileDoing: .saving))))
      }
      if let cooldown {
        try await clock.sleep(for: cooldown)
      }
      await send(.persistence(.saveCooldownEnded))
    }
    .cancellable(id: AppFeature.PersistenceCancelID.save)
  }
}
