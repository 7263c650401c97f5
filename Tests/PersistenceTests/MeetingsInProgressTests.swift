import AppFeature
import Composable
import ComposableTestSupport
import Foundation
import IdentifiedCollections
import Models
import Persistence
import RecordMeeting
import StorageClient
import Synchronization
import Testing

/// A meeting being recorded is written as it goes, so that a crash loses none of it; a meeting
/// kept or discarded leaves nothing behind.
@MainActor
struct MeetingsInProgressTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// A store whose recordings are owned by a process that is not running: as if this app had
  /// crashed, the next load keeps what it wrote.
  private func makeCrashingStore(
    discarded: DiscardLog? = nil
  ) async throws -> TestStore<PersistedApp.State, PersistedApp.Action> {
    try await folder.seed([.engineeringMock])
    let database = folder.database { $0.owner = "pid:999999999" }
    var storage = StorageClient.database(database)
    if let discarded {
      storage.discardMeetingInProgress = { id in
        discarded.record(id)
        try await database.discardMeetingInProgress(id)
      }
    }
    return await makeStore(
      on: database, storage: storage,
      path: StackState([.record(RecordMeeting.State(standup: .engineeringMock))]))
  }

  @Test func whatIsSaidIsWrittenAsItIsSaid() async throws {
    let store = try await makeCrashingStore()
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    await store.send(.app(.path(.element(id: 0, action: .record(.speechResult("Blob: hi")))))) {
      $0.app.path[id: 0, case: \.record]?.transcript = "Blob: hi"
      $0.storage.meetingsInProgress[0] = PersistedApp.StorageState.Recording(
        id: Meeting.ID(UUID(0)), startedAt: start, transcript: "Blob: hi",
        standupID: Standup.engineeringMock.id)
      $0.storage.pendingWrites = [
        .meetingInProgress(
          MeetingInProgress(
            id: Meeting.ID(UUID(0)), standup: .engineeringMock, startedAt: start,
            transcript: "Blob: hi"))
      ]
      $0.storage.isWriting = true
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites = []
      $0.storage.isWriting = false
    }

    let next = try await folder.database().load()
    #expect(next.openingReport?.recoveredMeetings.map(\.meeting.transcript) == ["Blob: hi"])
    #expect(
      next.standups[id: Standup.engineeringMock.id]?.meetings.map(\.transcript) == ["Blob: hi"])
  }

  @Test func aMeetingKeptLeavesNothingToRecoverAndIsNeverForgottenOnTheWay() async throws {
    let discarded = DiscardLog()
    let store = try await makeCrashingStore(discarded: discarded)
    store.exhaustivity = .off

    await store.send(.app(.path(.element(id: 0, action: .record(.speechResult("Said"))))))
    await store.receive(\.written)
    await store.send(.app(.path(.element(id: 0, action: .record(.endMeetingButtonTapped)))))
    await store.send(
      .app(.path(.element(id: 0, action: .record(.alert(.presented(.confirmSave)))))))
    await store.receive(\.app.delegate.standupsChanged)
    await store.receive(\.written)

    #expect(store.state.storage.meetingsInProgress.isEmpty)
    #expect(discarded.ids.isEmpty, "kept by the change that records it, in one transaction")
    let next = try await folder.database().load()
    #expect(next.openingReport?.recoveredMeetings.isEmpty == true)
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.map(\.transcript) == ["Said"])
  }

  @Test func aMeetingDiscardedLeavesNothing() async throws {
    let store = try await makeCrashingStore()
    store.exhaustivity = .off

    await store.send(.app(.path(.element(id: 0, action: .record(.speechResult("Said"))))))
    await store.receive(\.written)
    await store.send(.app(.path(.element(id: 0, action: .record(.endMeetingButtonTapped)))))
    await store.send(
      .app(.path(.element(id: 0, action: .record(.alert(.presented(.confirmDiscard)))))))
    await store.receive(\.app.path.popFrom)
    await store.receive(\.written)

    #expect(store.state.storage.pendingWrites.isEmpty)
    let next = try await folder.database().load()
    #expect(next.openingReport?.recoveredMeetings.isEmpty == true)
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.isEmpty == true)
  }
}

/// The standups whose meeting in progress was forgotten, in order.
final class DiscardLog: Sendable {
  private let log = Mutex<[Standup.ID]>([])

  func record(_ id: Standup.ID) {
    log.withLock { $0.append(id) }
  }

  var ids: [Standup.ID] {
    log.withLock { $0 }
  }
}
