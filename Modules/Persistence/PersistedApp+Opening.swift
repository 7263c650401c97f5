public import AppFeature
import Composable
import Models
public import StorageClient

// Opening: the app starts from what the storage loaded — the standups, whether they can be
// written, what opening still has to write, or why they could not be read — and can start again
// when the user has what could not be read kept aside. A database another program holds is
// waited for in the background: the standups show as soon as they can be read, and what opening
// writes waits first in the queue of writes.

extension PersistedApp.State {
  /// The app as the stored standups, or the failure to read them, start it.
  ///
  /// Data that could not be read shows its alert, which offers to keep it aside; a store that is
  /// only read says why; a database another program holds is read again until it can be
  /// (``PersistedApp/Action/appeared`` starts that).
  ///
  /// - Parameters:
  ///   - app: The screens to start on; their standups are replaced by the stored ones.
  ///   - stored: What ``StorageClient/load`` gave.
  public init(
    app: AppFeature.State = AppFeature.State(), stored: Result<StoredStandups, StorageError>
  ) {
    self.init(app: app)
    switch stored {
    case .success(let stored):
      start(from: stored)
    case .failure(let error) where error.isWaitingForAnotherProgram:
      storage.status = .waitingToLoad(error)
    case .failure(let error):
      storage.status = .notSaving(error)
      alert = .loadFailed(error)
    }
    keepDeletionsInStep()
  }

  /// Shows what was loaded, and says what opening did or waits for.
  mutating func start(from stored: StoredStandups) {
    for standup in stored.standups {
      app.show(standup)
    }
    switch stored.access {
    case .readWrite:
      storage.status = .writable
    case .readOnly(let reason):
      storage.status = .readOnly(reason)
      notify(.readOnly(reason))
    }
    var notices: [String] = []
    if !stored.unreadable.isEmpty {
      notices.append(Self.unreadableNotice(stored.unreadable, atLaunch: true))
    }
    switch stored.opening {
    case .finished(let report):
      notices += report.notices
    case .waiting(let error):
      storage.pendingWrites.insert(.finishOpening, at: 0)
      storage.lastWriteError = error
    }
    tell(notices)
    storage.replacedValues = stored.replacedValues
    for value in stored.replacedValues {
      notify(.valueReplaced(value))
    }
  }

  /// Adds sentences to the notice, each once: a read that finds what an earlier one told (a
  /// standup still unreadable) adds nothing.
  mutating func tell(_ sentences: [String]) {
    let new = sentences.filter { !(storage.notice?.contains($0) ?? false) }
    guard !new.isEmpty else { return }
    storage.notice = ([storage.notice].compactMap { $0 } + new).joined(separator: " ")
  }

  /// A sentence naming standups that cannot be read, at most three of them: at launch, they are
  /// left out; on a read of changes elsewhere, they stay as last read. Either way the stored rows
  /// are left as they are.
  static func unreadableNotice(_ unreadable: [UnreadableStandup], atLaunch: Bool) -> String {
    let named = unreadable.prefix(Wording.mostNamed).map(\.description).joined(separator: "; ")
    let more = unreadable.count - min(unreadable.count, Wording.mostNamed)
    let andMore = more > 0 ? " and \(more) more" : ""
    let one = unreadable.count == 1
    let shown =
      atLaunch
      ? "\(one ? "it is" : "they are") left out"
      : "\(one ? "it stays" : "they stay") as this app last read \(one ? "it" : "them"), if it "
        + "ever did, unsaved until \(one ? "it" : "they") can be read"
    return "\(named)\(andMore), so \(shown), and the stored \(one ? "row is" : "rows are") left as "
      + "\(one ? "it is" : "they are"); every other standup is shown and saved."
  }
}

extension OpeningReport {
  /// What the status line says about what opening did: meetings that an app stopped recording
  /// without ending them, now past meetings, and the data file of an earlier release brought in.
  public var notices: [String] {
    var sentences: [String] = []
    switch recoveredMeetings.count {
    case 0:
      break
    case 1:
      let recovered = recoveredMeetings[0]
      let lines = recovered.meeting.transcript.split(separator: "\n").count
      sentences.append(
        "A meeting of \(recovered.standupTitle.quotedForPeople) stopped before it ended; "
          + "it is kept as a past meeting (\(Wording.counted(lines, "line"))).")
    default:
      sentences.append(
        "\(recoveredMeetings.count) meetings stopped before they ended; they are kept as past "
          + "meetings of \(Wording.named(recoveredMeetings.map(\.standupTitle))).")
    }
    switch earlierRelease {
    case .imported(let report)?:
      sentences.append(
        "Brought in the standups of \(report.path), which is left as it was. \(report)")
    case .failed(let path, let reason)?:
      // NB: The file is named once, in the command that brings it in, so that the notice is
      // short enough to show it whole.
      let ending = reason.hasSuffix(".") ? "" : "."
      sentences.append(
        "The standups of an earlier release could not be brought in: \(reason)\(ending) It is "
          + "left as it was; once mended: standups import \(path)")
    case nil:
      break
    }
    return sentences
  }
}

extension PersistedApp {
  /// Reads the standups again, after a wait that grows with each try, until another program
  /// lets go of the database.
  func loadAgain() -> Effect<Action> {
    .run { [load, clock] send in
      var attempt = 0
      while true {
        do {
          await send(.loaded(.success(try await load())))
          return
        } catch let error as StorageError where error.isWaitingForAnotherProgram {
          attempt += 1
          try await clock.sleep(for: .seconds(min(1 << min(attempt - 1, 5), 30)))
        } catch {
          await send(.loaded(.failure(StorageError(error, whileDoing: .loading))))
          return
        }
      }
    }
    .cancellable(id: CancelID.retry, cancelInFlight: true)
  }

  /// The standups could be read at last: show them, with what the user changed meanwhile on
  /// top, and write that.
  func loaded(_ result: Result<StoredStandups, StorageError>, _ state: inout State) -> Effect<
    Action
  > {
    guard case .waitingToLoad = state.storage.status else { return .none }
    switch result {
    case .success(var stored):
      for write in state.storage.pendingWrites {
        if case .change(let change) = write {
          change.apply(to: &stored.standups)
        }
      }
      state.start(from: stored)
      if !state.storage.isWritable {
        state.storage.hasChangesOnlyInMemory =
          state.storage.hasChangesOnlyInMemory || state.storage.hasChangesNotInTheDataFile
      }
    case .failure(let error):
      state.storage.status = .notSaving(error)
      state.notify(.loadFailed(error))
    }
    state.keepDeletionsInStep()
    return writeNext(&state)
  }

  /// Opening wrote what it had to: show the standups it changed, and say what it did.
  func openingFinished(_ report: OpeningReport, _ state: inout State) -> Effect<Action> {
    var standups = report.standups
    for write in state.storage.pendingWrites {
      if case .change(let change) = write {
        change.apply(to: &standups)
      }
    }
    for standup in standups {
      state.app.show(standup)
    }
    state.tell(report.notices)
    return .none
  }

  /// The user chose to start again: keep the data that could not be read aside first.
  func keepUnreadableDataAside(then freshStart: FreshStart) -> Effect<Action> {
    .run { [keepUnreadableData] send in
      let result: Result<String?, StorageError>
      do {
        result = .success(try await keepUnreadableData())
      } catch {
        result = .failure(StorageError(error, whileDoing: .keepingAside))
      }
      await send(.unreadableDataKeptAside(result, then: freshStart))
    }
  }

  /// The data that could not be read is safe (or could not be made safe). Once it is, the store
  /// is empty, and everything on screen is written to it: the sample data when asked for, and
  /// whatever was changed meanwhile.
  func unreadableDataKeptAside(
    _ result: Result<String?, StorageError>,
    then freshStart: FreshStart,
    _ state: inout State
  ) -> Effect<Action> {
    guard case .notSaving = state.storage.status else { return .none }
    switch result {
    case .success(let backup):
      state.storage.status = .writable
      state.keepDeletionsInStep()
      state.storage.backup = backup ?? state.storage.backup
      state.storage.hasChangesOnlyInMemory = false
      if freshStart == .sampleData {
        state.app.apply(
          .added(
            [.mock, .engineeringMock, .productMock].filter {
              state.app.list.standups[id: $0.id] == nil
            }))
      }
      guard !state.app.list.standups.isEmpty else { return .none }
      return enqueue(.change(.added(state.app.list.standups.elements)), &state)
    case .failure(let error):
      state.notify(.backupFailed(error))
      return .none
    }
  }

  /// An alert put away without an answer takes its harmless one: the action of its cancel
  /// button (a standup deleted elsewhere is kept; a replaced value is left as it is).
  func answerHarmlessly(_ state: inout State) -> Effect<Action> {
    guard let harmless = state.alert?.buttons.first(where: { $0.role == .cancel })?.action
    else { return .none }
    switch harmless {
    case .keepDeletedStandup(let id): return keepDeletedStandup(id, &state)
    case .leaveReplacedValue(let id): return putAway(id, restoring: false, &state)
    case .keepUnreadableDataAside, .letAttendeeGo, .letDeletedStandupGo, .putReplacedValueBack:
      return .none
    }
  }
}
