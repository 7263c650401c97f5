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
    await store.deleteMeeting(at: 0, onDetail: 0, leaving: standup)
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated, standup) {
      $0.list.standups = [standup]
      if startsWrite {
        $0.persistence.isSaving = true
        $0.persistence.revision += 1
      } else {
        $0.persistence.hasUnsavedChanges = true
      }
    }
    return standup
  }

  @Test func theFirstChangeIsWrittenAtOnceAndABurstIsCoalesced() async {
    let storage = InMemoryStorage(loaded: [Self.standup])
    let store = makeDetailStore(storage: storage)

    let first = await deleteFirstMeeting(in: store, startsWrite: true)
    #expect(storage.saveCount == 1)
    #expect(storage.savedStandups == [first])

    _ = await deleteFirstMeeting(in: store, startsWrite: false)
    let third = await deleteFirstMeeting(in: store, startsWrite: false)
    await clock.advance(by: .milliseconds(999))
    #expect(storage.saveCount == 1)

    await clock.advance(by: .milliseconds(1))
    await store.receive(\.persistence.saveCooldownEnded) {
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.revision = 2
    }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [third])

    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    await expectNothingLeftRunning(store)
  }

  @Test func timerTicksNeverWrite() async {
    let storage = InMemoryStorage(loaded: [Self.standup])
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
    let storage = InMemoryStorage(loaded: [Self.standup])
    let store = makeDetailStore(storage: storage)

    _ = await deleteFirstMeeting(in: store, startsWrite: true)
    let latest = await deleteFirstMeeting(in: store, startsWrite: false)
    #expect(storage.saveCount == 1)

    await store.send(.persistence(.flushPendingSave)) {
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.revision = 2
    }
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [latest])

    await store.send(.persistence(.flushPendingSave))
    #expect(storage.saveCount == 2)
    await expectNothingLeftRunning(store)
  }

  @Test func aFailedWriteShowsAnAlertAndIsRetriedOnTheNextChange() async {
    let storage = InMemoryStorage(loaded: [Self.standup])
    let store = makeDetailStore(storage: storage)
    let failure = StorageError.writeFailed(
      FileProblem(path: "/data/standups.json", reason: .diskFull, technicalDetail: "ENOSPC")
    )
    storage.failSaves(with: failure)

    _ = await deleteFirstMeeting(in: store, startsWrite: true)
    await store.receive(\.persistence.saveFailed, failure) {
      $0.persistence.hasUnsavedChanges = true
      $0.persistence.lastWriteError = failure
      $0.alert = .saveFailed(failure)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [Self.standup])
    #expect(storage.saveCount == 0)
    #expect(store.state.persistence.problem?.contains("the disk is full") == true)

    await store.send(.alert(.dismiss)) { $0.alert = nil }
    storage.failSaves(with: nil)
    var latest = store.state.list.standups[0]
    latest.meetings.removeFirst()
    await store.deleteMeeting(at: 0, onDetail: 0, leaving: latest)
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated, latest) {
      $0.list.standups = [latest]
      $0.persistence.isSaving = true
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.lastWriteError = nil
      $0.persistence.revision = 2
    }
    #expect(storage.savedStandups == [latest])

    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    await expectNothingLeftRunning(store)
  }

  @Test func aMissingFileLoadsEmptyAndTheFirstChangeCreatesIt() async {
    let storage = InMemoryStorage()
    let store = makeStore(AppFeature.State(), storage: storage.client)

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [])
    }
    await store.receive(\.persistence.standupsLoaded, .success(StoredStandups(standups: []))) {
      $0.persistence.status = .loaded
    }
    #expect(storage.saveCount == 0)
    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData) {
      $0.list.standups = [.mock, .engineeringMock, .productMock]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    #expect(storage.savedStandups == [.mock, .engineeringMock, .productMock])
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    await expectNothingLeftRunning(store)
  }

  @Test func loadingDoesNotWriteTheLoadedStandupsBack() async {
    let storage = InMemoryStorage(standups: [.mock])
    let store = makeStore(AppFeature.State(), storage: storage.client)

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [])
    }
    await store.receive(\.persistence.standupsLoaded, .success(StoredStandups(standups: [.mock]))) {
      $0.persistence.status = .loaded
      $0.list.standups = [.mock]
    }
    #expect(storage.saveCount == 0)
    await store.send(.onTask)
  }

  @Test func aFlushDuringAWriteWritesTheStandupsAgain() async {
    let storage = InMemoryStorage(loaded: [Self.standup])
    let store = makeDetailStore(storage: storage)

    let latest = await deleteFirstMeeting(in: store, startsWrite: true)
    #expect(storage.saveCount == 1)

    await store.send(.persistence(.flushPendingSave)) { $0.persistence.revision = 2 }
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.saveCount == 2)
    #expect(storage.savedStandups == [latest])
    await expectNothingLeftRunning(store)
  }
}
