import Composable
import Models
import StorageClient

// Writing: every change the user makes, and every step of a meeting being recorded, joins one
// queue, written in order, one transaction each, as soon as the write before it is done. A write
// that fails for a while is tried again on its own, a second later, then two, four… up to half a
// minute apart, until it lands; a new change tries at once. There is no other timer.

extension PersistedApp {
  /// The user changed the standups: write the change, or, when nothing is written, remember that
  /// memory holds changes the store lacks. (A deletion never gets here then: the glue refused
  /// it, `AppFeature.State.deletions`.)
  func record(_ change: StandupsChange, _ state: inout State) -> Effect<Action> {
    switch state.storage.status {
    case .writable, .waitingToLoad:
      return enqueue(.change(change), &state)
    case .readOnly, .notSaving:
      state.storage.hasChangesOnlyInMemory = true
      return .none
    }
  }

  /// Adds a write to the queue and starts writing, unless a write is under way. After a failed
  /// write this tries again at once, from the write that failed.
  func enqueue(_ write: StorageState.PendingWrite, _ state: inout State) -> Effect<Action> {
    state.storage.pendingWrites.append(write)
    return writeNext(&state)
  }

  /// Starts the first pending write, unless one is under way or nothing may be written.
  func writeNext(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable, !state.storage.isWriting,
      let next = state.storage.pendingWrites.first
    else { return .none }
    state.storage.isWriting = true
    return .concatenate(
      .cancel(id: CancelID.retry),
      .run {
        [
          applyChange, finishOpening, saveMeetingInProgress, discardMeetingInProgress,
          putAwayReplacedValue
        ] send in
        do {
          switch next {
          case .finishOpening:
            await send(.openingFinished(try await finishOpening()))
          case .change(let change):
            switch try await applyChange(change) {
            case .applied: break
            case .standupGone(let id): await send(.changedStandupWasDeletedElsewhere(id))
            case .renamedAttendeesKept(let id, let attendees):
              await send(.renamedAttendeesWereKept(id, attendees))
            }
          case .meetingInProgress(let meeting): try await saveMeetingInProgress(meeting)
          case .meetingDiscarded(let standupID): try await discardMeetingInProgress(standupID)
          case .putAway(let id): try await putAwayReplacedValue(id)
          }
          await send(.written)
        } catch {
          await send(.writeFailed(StorageError(error, whileDoing: .writing)))
        }
      }
      .cancellable(id: CancelID.writing)
    )
  }

  /// The first pending write is done: go on with the next.
  func written(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWriting, !state.storage.pendingWrites.isEmpty else { return .none }
    state.storage.pendingWrites.removeFirst()
    state.storage.isWriting = false
    state.storage.lastWriteError = nil
    state.storage.failedAttempts = 0
    if state.storage.pendingWrites.isEmpty {
      state.storage.isFlushing = false
    }
    return writeNext(&state)
  }

  /// A write failed and was rolled back. One that may land later stays first in the queue and
  /// is tried again after a while; one that never can as it is (its standup cannot be read) is
  /// set aside, its change kept in memory for the recovery file; a file that is no longer the
  /// one at the path stops all writing. The user is told, once any question they are answering
  /// is closed and any meeting they record is over; the status line says it meanwhile, and is
  /// all that tells of another program holding the database.
  func writeFailed(_ error: StorageError, _ state: inout State) -> Effect<Action> {
    state.storage.isWriting = false
    if error.concernsOnlyItsChange, !state.storage.pendingWrites.isEmpty {
      state.storage.pendingWrites.removeFirst()
      state.storage.hasChangesOnlyInMemory = true
      state.notify(.notSaved(error))
      return writeNext(&state)
    }
    if case .replaced = error {
      // NB: A write and a read of changes elsewhere under way may each find the file gone; the user
      // hears it once.
      if case .notSaving = state.storage.status { return .none }
      state.storage.status = .notSaving(error)
      state.storage.hasChangesOnlyInMemory = true
      state.storage.lastWriteError = nil
      state.notify(.stoppedSaving(error))
      return .none
    }
    let isNew = state.storage.lastWriteError != error
    state.storage.lastWriteError = error
    state.storage.failedAttempts += 1
    // NB: Another program holding the database is said on the status line only: the write
    // lands on its own once it lets go, and an alert would only interrupt.
    if isNew, !error.isWaitingForAnotherProgram {
      state.notify(.saveFailed(error))
    }
    // NB: A flush is the app leaving: waiting out a retry would hold it up, and what is not
    // written goes to the recovery file.
    guard error.isWorthRetrying, !state.storage.isFlushing else {
      state.storage.isFlushing = false
      return .none
    }
    return .run { [clock, delay = state.storage.retryDelay] send in
      try await clock.sleep(for: delay)
      await send(.retryDelayEnded)
    }
    .cancellable(id: CancelID.retry, cancelInFlight: true)
  }

  /// The app is about to exit: write everything pending now, in this action's effects, so that
  /// whoever sent it can wait for them; a write that fails ends the flush, without waiting to
  /// try again. A write under way is cancelled and written again, which does no harm: every
  /// write is idempotent.
  func flush(_ state: inout State) -> Effect<Action> {
    guard state.storage.isWritable, !state.storage.pendingWrites.isEmpty else { return .none }
    state.storage.isWriting = false
    state.storage.isFlushing = true
    return .concatenate(
      .cancel(id: CancelID.writing), .cancel(id: CancelID.retry), writeNext(&state))
  }

  /// The front end shows the app (at launch, or again after the user chose to stay rather than
  /// quit): load again if the standups could not be read yet, and go on with the writes that
  /// wait.
  func resume(_ state: inout State) -> Effect<Action> {
    if case .waitingToLoad = state.storage.status {
      return loadAgain()
    }
    return writeNext(&state)
  }
}
