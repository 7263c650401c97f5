import Composable
import Models
import StorageClient

// Writing: every change the user makes, and every step of a meeting being recorded, joins one
// queue, written in order, one transaction each, as soon as the write before it is done. There is
// no timer: a change is committed at once, and one made while another is written waits only for
// that one.

extension PersistedApp {
  /// The user changed the standups: write the change, or, when nothing is written, remember that
  /// memory holds changes the store lacks.
  func record(_ change: StandupsChange, _ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable else {
      // NB: A deletion announced here was refused, and the app put back (see `body`).
      if !change.isDeletion {
        state.storage.hasChangesOnlyInMemory = true
      }
      return .none
    }
    return enqueue(.change(change), &state)
  }

  /// Adds a write to the queue and starts writing, unless a write is under way. After a failed
  /// write this tries again, from the write that failed.
  func enqueue(_ write: Storage.PendingWrite, _ state: inout State) -> Effect<Action> {
    state.storage.pendingWrites.append(write)
    return writeNext(&state)
  }

  /// Starts the first pending write, unless one is under way or nothing may be written.
  func writeNext(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable, !state.storage.isWriting,
      let next = state.storage.pendingWrites.first
    else { return .none }
    state.storage.isWriting = true
    return .run { [applyChange, saveMeetingInProgress, discardMeetingInProgress] send in
      do {
        switch next {
        case .change(let change):
          if case .standupGone(let id) = try await applyChange(change) {
            await send(.changedStandupWasDeletedElsewhere(id))
          }
        case .meetingInProgress(let meeting): try await saveMeetingInProgress(meeting)
        case .meetingDiscarded(let standupID): try await discardMeetingInProgress(standupID)
        }
        await send(.written)
      } catch {
        await send(.writeFailed(StorageError(error, whileDoing: .writing)))
      }
    }
    .cancellable(id: CancelID.writing)
  }

  /// The first pending write is done: go on with the next.
  func written(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWriting, !state.storage.pendingWrites.isEmpty else { return .none }
    state.storage.pendingWrites.removeFirst()
    state.storage.isWriting = false
    state.storage.lastWriteError = nil
    return writeNext(&state)
  }

  /// A write failed and was rolled back: keep it, and what follows it, to try again with the next
  /// change or at exit; tell the user (once any alert they are answering is closed).
  func writeFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.storage.isWriting = false
    state.storage.lastWriteError = error
    state.notify(.saveFailed(error))
    return .none
  }

  /// The app is about to exit: write everything pending now, in this action's effects, so that
  /// whoever sent it can wait for them. A write under way is cancelled and written again, which
  /// does no harm: every write is idempotent.
  func flush(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable, !state.storage.pendingWrites.isEmpty else { return .none }
    state.storage.isWriting = false
    return .concatenate(.cancel(id: CancelID.writing), writeNext(&state))
  }
}
