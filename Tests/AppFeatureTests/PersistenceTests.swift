import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import RecordMeeting
import StandupDetail
import StandupsList
import StorageClient
import Testing

/// When and what the app writes, driven by a test clock.
@MainActor
struct PersistenceTests {
  let clock = TestClock()

  /// A standup with three past meetings, so that a test can change it three times.
  static let standup: Standup = {
    var standup = Standup.engineeringMock
    standup.meetings = [
      Meeting(id: Meeting.ID(UUID(100)), date: Date(timeIntervalSince1970: 3), transcript: "3"),
      Meeting(id: Meeting.ID(UUID(101)), date: Date(timeIntervalSince1970: 2), transcript: "2"),
      Meeting(id: Meeting.ID(UUID(102)), date: Date(timeIntervalSince1970: 1), transcript: "1"),
    ]
    return standup
  }()

  func makeStore(
    _ state: @autoclosure () -> AppFeature.State,
    storage: StorageClient
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.storageClient = storage
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient.authorizationStatus = { .denied }
    }
  }

  func makeDetailStore(
    storage: InMemoryStorage
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    makeStore(
      .loaded(
        [Self.standup],
        path: StackState([.detail(StandupDetail.State(standup: Self.standup))])
      ),
      storage: storage.client
    )
  }

  /// Deletes the detail's oldest remaining meeting and returns the standup it leaves.
  func deleteFirstMeeting(
    in store: TestStore<AppFeature.State, AppFeature.Action>,
    startsWrite: Bool
  ) async -> Standup {
    var standup = store.state.list.standups[0]
    standup.meetings.removeFirst()
    await store.send(\.path[id: 0].detail.deleteMeetings, [0]) {
      $0.path[id: 0, case: \.detail]?.standup = standup
    }
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated, standup) {
      $0.list.standups = [standup]
      if startsWrite {
        $0.persistence.isSaving = true
      } else {
        $0.persistence.hasUnsavedChanges = true
      }
    }
    return standup
  }

  @Test func theFirstChangeIsWrittenAtOnceAndABurstIsCoalesced() async {
    let storage = InMemoryStorage(standups: [Self.standup])
    let store = makeDetailStore(storage: storage)

    let first = await deleteFirstMeeting(in: store, startsWrite: true)
    #expect(storage.saveCount == 1)
    #expect(storage.savedStandups == [first])

    _ = await deleteFirstMeeting(in: store, startsWrite: false)
    let third = await deleteFirstMeeting(in: store, startsWrite: false)
    await clock.advance(by: .milliseconds(999))
    #expect(storage.saveCount == 1)

    await clock.advance(by: .milliseconds(1))
    await store.receive(\.saveCooldownEnded) { $0.persistence.hasUnsavedChanges = false }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [third])

    await clock.advance(by: .seconds(1))
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    await expectNothingLeftRunning(store)
  }

  @Test func timerTicksNeverWrite() async {
    let storage = InMemoryStorage(standups: [Self.standup])
    let store = makeStore(
      .loaded(
        [Self.standup],
        path: StackState([
          .detail(StandupDetail.State(standup: Self.standup)),
          .record(RecordMeeting.State(standup: Self.standup)),
        ])
      ),
      storage: storage.client
    )

    let meeting = await store.send(\.path[id: 1].record.onTask)
    for second in 1...3 {
      await clock.advance(by: .seconds(1))
      await store.receive(\.path[id: 1].record.timerTick) {
        $0.path[id: 1, case: \.record]?.secondsElapsed = second
      }
    }
    #expect(storage.saveCount == 0)
    await meeting.cancel()
    await expectNothingLeftRunning(store)
  }

  @Test func aFlushWritesPendingChangesAtOnce() async {
    let storage = InMemoryStorage(standups: [Self.standup])
    let store = makeDetailStore(storage: storage)

    _ = await deleteFirstMeeting(in: store, startsWrite: true)
    let latest = await deleteFirstMeeting(in: store, startsWrite: false)
    #expect(storage.saveCount == 1)

    await store.send(.flushPendingSave) { $0.persistence.hasUnsavedChanges = false }
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [latest])

    await store.send(.flushPendingSave)
    #expect(storage.saveCount == 2)
    await expectNothingLeftRunning(store)
  }

  @Test func aFailedWriteShowsAnAlertAndIsRetriedOnTheNextChange() async {
    let storage = InMemoryStorage(standups: [Self.standup])
    let store = makeDetailStore(storage: storage)
    let failure = StorageError.writeFailed("disk full")
    storage.failSaves(with: failure)

    _ = await deleteFirstMeeting(in: store, startsWrite: true)
    await store.receive(\.saveFailed, failure) {
      $0.persistence.hasUnsavedChanges = true
      $0.persistence.lastWriteError = failure
      $0.list.alert = .saveFailed(failure)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [Self.standup])
    #expect(storage.saveCount == 0)

    await store.send(.list(.alert(.dismiss))) { $0.list.alert = nil }
    storage.failSaves(with: nil)
    var latest = store.state.list.standups[0]
    latest.meetings.removeFirst()
    await store.send(\.path[id: 0].detail.deleteMeetings, [0]) {
      $0.path[id: 0, case: \.detail]?.standup = latest
    }
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated, latest) {
      $0.list.standups = [latest]
      $0.persistence.isSaving = true
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.lastWriteError = nil
    }
    #expect(storage.savedStandups == [latest])

    await clock.advance(by: .seconds(1))
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }
    await expectNothingLeftRunning(store)
  }

  @Test func aCorruptFileAtStartShowsTheAlertAndIsKeptAsABackup() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-app-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("standups.json")
    let corrupt = Data("{ this is not the standups you are looking for".utf8)
    try corrupt.write(to: file)
    let expectedError: StorageError
    do {
      _ = try StandupsFile.decode(corrupt)
      Issue.record("The corrupt fixture decoded.")
      return
    } catch {
      expectedError = .corrupt(error)
    }
    let store = makeStore(AppFeature.State(), storage: .file(at: file))

    await store.send(.list(.onTask)) { $0.list.loadStatus = .loading }
    await store.receive(\.list.standupsLoaded, .failure(expectedError)) {
      $0.list.loadStatus = .failed
      $0.list.alert = .dataFailedToLoad(expectedError)
    }
    #expect(try Data(contentsOf: file) == corrupt)

    await store.send(.list(.alert(.presented(.confirmLoadSampleData)))) {
      $0.list.alert = nil
      $0.list.standups = [.mock, .engineeringMock, .productMock]
      $0.persistence.isSaving = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }

    let saved = try StandupsFile.decode(Data(contentsOf: file))
    #expect(saved.standups == [.mock, .engineeringMock, .productMock])
    let backups = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("standups.corrupt-") }
    #expect(backups.count == 1)
    let backup = directory.appendingPathComponent(try #require(backups.first))
    #expect(try Data(contentsOf: backup) == corrupt)
    await expectNothingLeftRunning(store)
  }

  @Test func nothingIsWrittenBeforeTheStandupsHaveLoaded() async {
    let storage = InMemoryStorage(standups: [.mock])
    let store = makeStore(
      AppFeature.State(
        list: StandupsList.State(
          alert: .dataFailedToLoad(.readFailed("not yet")),
          loadStatus: .loading
        )
      ),
      storage: storage.client
    )

    await store.send(.list(.alert(.presented(.confirmLoadSampleData)))) {
      $0.list.alert = nil
      $0.list.standups = [.mock, .engineeringMock, .productMock]
    }
    await store.send(.flushPendingSave)
    #expect(storage.saveCount == 0)
    #expect(storage.savedStandups == [.mock])
  }

  @Test func loadingDoesNotWriteTheLoadedStandupsBack() async {
    let storage = InMemoryStorage(standups: [.mock])
    let store = makeStore(AppFeature.State(), storage: storage.client)

    await store.send(.list(.onTask)) { $0.list.loadStatus = .loading }
    await store.receive(\.list.standupsLoaded, .success([.mock])) {
      $0.list.loadStatus = .loaded
      $0.list.standups = [.mock]
    }
    #expect(storage.saveCount == 0)
  }

  @Test func aFlushDuringAWriteWritesTheStandupsAgain() async {
    let storage = InMemoryStorage(standups: [Self.standup])
    let store = makeDetailStore(storage: storage)

    let latest = await deleteFirstMeeting(in: store, startsWrite: true)
    #expect(storage.saveCount == 1)

    await store.send(.flushPendingSave)
    await store.receive(\.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [latest])
    await expectNothingLeftRunning(store)
  }
}
