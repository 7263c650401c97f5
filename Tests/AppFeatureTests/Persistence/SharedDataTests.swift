import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import RecordMeeting
import StandupDetail
import StorageClient
import Testing

/// Several instances of the app on one data file: what another saved is merged, shown and kept,
/// never written over.
@MainActor
struct SharedDataTests {
  let clock = TestClock()

  func makeStore(
    _ state: AppFeature.State,
    storage: InMemoryStorage
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.storageClient = storage.client
    }
  }

  @Test func aWriteThatMeetsAnotherInstancesChangesMergesThemShowsThemAndWritesBoth() async {
    let storage = InMemoryStorage(loaded: [.mock])
    let store = makeStore(
      .loaded([.mock], path: StackState([.detail(StandupDetail.State(standup: .mock))])),
      storage: storage)
    var renamedElsewhere = Standup.mock
    renamedElsewhere.title = "Design review"
    storage.saveElsewhere([renamedElsewhere, .engineeringMock])

    var withoutMeetings = Standup.mock
    withoutMeetings.meetings = []
    await store.deleteMeeting(at: 0, onDetail: 0, leaving: withoutMeetings)
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated) {
      $0.list.standups = [withoutMeetings]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    var merged = renamedElsewhere
    merged.meetings = []
    await store.receive(\.persistence.storedDataChanged) {
      $0.list.standups = [merged, .engineeringMock]
      $0.path[id: 0, case: \.detail]?.standup = merged
      $0.persistence.revision = 2
    }
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [merged, .engineeringMock])
    await expectNothingLeftRunning(store)
  }

  @Test func aLookShowsAnotherInstancesChangesAndClosesScreensOfStandupsDeletedThere() async {
    let storage = InMemoryStorage(loaded: [.mock, .engineeringMock])
    let store = makeStore(
      .loaded(
        [.mock, .engineeringMock],
        path: StackState([.detail(StandupDetail.State(standup: .engineeringMock))])),
      storage: storage)

    await store.send(.persistence(.lookForChangesElsewhere))
    storage.saveElsewhere([.mock, .productMock])

    await store.send(.persistence(.lookForChangesElsewhere))
    await store.receive(\.persistence.storedDataChanged) {
      $0.list.standups = [.mock, .productMock]
      $0.path = StackState()
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [.mock, .productMock])

    await store.send(.persistence(.lookForChangesElsewhere))
    await expectNothingLeftRunning(store)
  }

  @Test func aStandupDeletedElsewhereWhileItsMeetingIsRecordedHereIsKept() async {
    let storage = InMemoryStorage(loaded: [.engineeringMock])
    let store = makeStore(
      .loaded(
        [.engineeringMock],
        path: StackState([
          .detail(StandupDetail.State(standup: .engineeringMock)),
          .record(RecordMeeting.State(standup: .engineeringMock)),
        ])),
      storage: storage)
    storage.saveElsewhere([])

    await store.send(.persistence(.lookForChangesElsewhere))
    await store.receive(\.persistence.storedDataChanged) {
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [.engineeringMock])
    await expectNothingLeftRunning(store)
  }
}
