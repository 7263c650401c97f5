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
import StandupForm
import StandupsList
import StorageClient
import Synchronization
import Testing

/// Nothing the user does is lost, and data that could not be read is never written over: the
/// persistence policy, driven the way users, deep links and a failing disk can.
@MainActor
struct DataSafetyTests {
  let clock = TestClock()

  func makeStore(
    _ state: @autoclosure () -> AppFeature.State,
    storage: InMemoryStorage
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.date.now = AppFeatureTests.now
      $0.storageClient = storage.client
      $0.uuid = .incrementing
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient.authorizationStatus = { .denied }
    }
  }

  /// A standup as the file has it: with a meeting that a stale deep link does not show.
  static let storedEngineering = Standup.engineeringMock.adding(
    meetingWithTranscript: "Held before the deep link was made",
    id: 900
  )

  // MARK: - Nothing done before loading finishes is lost

  @Test func aStandupAddedWhileLoadingIsMergedIntoWhatLoadsAndWritten() async {
    let storage = InMemoryStorage(standups: [.mock])
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(AppFeature.State(), storage: storage)
    let added = Standup(
      id: Standup.ID(UUID(0)),
      attendees: [Attendee(id: Attendee.ID(UUID(1)))],
      title: "Added while loading"
    )

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [])
    }
    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )))
    }
    await store.send(\.destination.add.titleChanged, "Added while loading") {
      $0.destination?.modify(\.add) { $0.standup.title = "Added while loading" }
    }
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [added]
      $0.persistence.changesBeforeLoad.record(added)
    }
    #expect(storage.saveCount == 0)

    load.open()
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .loaded
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.list.standups = [.mock, added]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    #expect(storage.savedStandups == [.mock, added])
    await finishSaving(store)
  }

  @Test func aMeetingRecordedOnADeepLinkWhileLoadingIsKept() async {
    let a = Standup.engineeringMock
    let storage = InMemoryStorage(standups: [a])
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(
      AppFeature.State(
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .record(RecordMeeting.State(standup: a)),
        ])
      ),
      storage: storage
    )
    let recorded = a.adding(meetingWithTranscript: "", id: 0)

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [a])
    }
    await store.send(\.path[id: 1].record.endMeetingButtonTapped) {
      $0.path[id: 1, case: \.record]?.alert = .endMeeting(isDiscardable: true)
    }
    await store.send(\.path[id: 1].record.alert.presented.confirmSave) {
      $0.path[id: 1, case: \.record]?.alert = nil
      $0.path[id: 1, case: \.record]?.isEnded = true
    }
    await store.receive(\.path[id: 1].record.delegate.save, "") {
      $0.path.pop(from: 1)
      $0.path[id: 0, case: \.detail]?.standup = recorded
      $0.persistence.changesBeforeLoad.record(recorded)
    }

    load.open()
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .loaded
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.list.standups = [recorded]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    #expect(storage.savedStandups == [recorded])
    await finishSaving(store)
  }

  @Test func anEditConfirmedWhileLoadingChangesOnlyWhatItEdited() async {
    let stale = Standup.engineeringMock
    let storage = InMemoryStorage(standups: [Self.storedEngineering])
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    var form = StandupForm.State(standup: stale)
    form.standup.title = "Platform"
    let store = makeStore(
      AppFeature.State(
        destination: .edit(form),
        path: StackState([.detail(StandupDetail.State(standup: stale))])
      ),
      storage: storage
    )
    var edited = stale
    edited.title = "Platform"
    var merged = Self.storedEngineering
    merged.title = "Platform"

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [stale])
    }
    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.path[id: 0, case: \.detail]?.standup = edited
      $0.persistence.changesBeforeLoad.record(edited)
    }

    load.open()
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .loaded
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.list.standups = [merged]
      $0.path[id: 0, case: \.detail]?.standup = merged
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    #expect(storage.savedStandups == [merged])
    await finishSaving(store)
  }

  @Test func aStandupDeletedWhileLoadingStaysDeleted() async {
    let storage = InMemoryStorage(standups: [.mock, .engineeringMock])
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(
      AppFeature.State(path: StackState([.detail(StandupDetail.State(standup: .mock))])),
      storage: storage
    )

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [.mock])
    }
    await store.send(\.path[id: 0].detail.deleteButtonTapped) {
      $0.path[id: 0, case: \.detail]?.alert = .deleteStandup
    }
    await store.send(\.path[id: 0].detail.alert.presented.confirmDeletion) {
      $0.path[id: 0, case: \.detail]?.alert = nil
    }
    await store.receive(\.path[id: 0].detail.delegate.deleteStandup, Standup.mock.id) {
      $0.path = StackState()
      $0.persistence.changesBeforeLoad.recordDeletion(of: Standup.mock.id)
    }

    load.open()
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .loaded
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.list.standups = [.engineeringMock]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    #expect(storage.savedStandups == [.engineeringMock])
    await finishSaving(store)
  }

  // MARK: - Data that could not be read is never written over

  @Test func dataThatCouldNotBeReadIsWrittenOnlyAfterItIsKeptAside() async {
    let problem = FileProblem(
      path: "/data/standups.json",
      reason: .permissionDenied,
      technicalDetail: "open: Permission denied (errno 13)"
    )
    let error = StorageError.unreadable(problem)
    let storage = InMemoryStorage(unreadable: problem)
    let store = makeStore(AppFeature.State(), storage: storage)

    await loadFailing(store, with: error)
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )))
    }
    await store.send(\.destination.add.titleChanged, "Kept in memory") {
      $0.destination?.modify(\.add) { $0.standup.title = "Kept in memory" }
    }
    let added = store.state.destination![case: \.add]!.validatedStandup
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [added]
      $0.persistence.hasUnsavedChanges = true
    }
    await store.send(.persistence(.flushPendingSave))
    #expect(storage.saveCount == 0)
    #expect(storage.backups.isEmpty)
    #expect(store.state.persistence.problem?.contains("permission denied") == true)

    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData) {
      $0.alert = .dataFailedToLoad(error)
    }
    await store.send(.alert(.presented(.keepUnreadableDataAside(then: .sampleData)))) {
      $0.alert = nil
    }
    await store.receive(\.persistence.unreadableDataKeptAside) {
      $0.persistence.status = .loaded
      $0.persistence.backup = "memory:backup-1"
      $0.list.standups = [added, .mock, .engineeringMock, .productMock]
      $0.persistence.isSaving = true
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.revision = 1
    }
    #expect(storage.backups == [nil])
    #expect(storage.savedStandups == [added, .mock, .engineeringMock, .productMock])
    await finishSaving(store)
  }

  @Test func whenTheUnreadableDataCannotBeKeptNothingIsWrittenAndTheUserIsTold() async {
    let problem = FileProblem(path: "/data", reason: .readOnlyDisk, technicalDetail: "EROFS")
    let storage = InMemoryStorage(unreadable: problem)
    let backupError = StorageError.backupFailed(problem)
    storage.failBackups(with: backupError)
    let store = makeStore(AppFeature.State(), storage: storage)

    await loadFailing(store, with: .unreadable(problem))
    await store.send(.alert(.presented(.keepUnreadableDataAside(then: .empty)))) {
      $0.alert = nil
    }
    await store.receive(\.persistence.unreadableDataKeptAside) {
      $0.alert = .backupFailed(backupError)
    }
    #expect(store.state.persistence.status == .notSaving(.unreadable(problem)))
    #expect(storage.saveCount == 0)
    await store.send(.persistence(.flushPendingSave))
    #expect(storage.saveCount == 0)
  }

  @Test func aCorruptFileIsCopiedAsideBeforeAnythingReplacesIt() async throws {
    let directory = try TemporaryDirectory()
    let file = directory.url.appendingPathComponent("standups.json")
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"title": 3}]}"#.utf8)
    try corrupt.write(to: file)
    let store = TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.storageClient = .file(at: file)
    }
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.receive(\.persistence.standupsLoaded)
    #expect(store.state.alert?.title == TextState("Data failed to load"))
    await store.send(.persistence(.flushPendingSave))
    #expect(try Data(contentsOf: file) == corrupt)

    await store.send(.alert(.presented(.keepUnreadableDataAside(then: .sampleData))))
    await store.receive(\.persistence.unreadableDataKeptAside)
    await store.send(.persistence(.flushPendingSave)).finish()
    await store.skipInFlightEffects(strict: false)

    let saved = try StandupsFile.decode(Data(contentsOf: file))
    #expect(saved.standups == [.mock, .engineeringMock, .productMock])
    let backups = try directory.names().filter { $0.hasPrefix("standups.backup-") }
    #expect(backups.count == 1)
    let backup = directory.url.appendingPathComponent(try #require(backups.first))
    #expect(try Data(contentsOf: backup) == corrupt)
  }

  // MARK: - Data from a newer release is read-only

  @Test func aFileFromANewerReleaseOpensReadOnlyAndIsNeverWritten() async throws {
    var json = String(decoding: try StandupsFile(standups: [.mock]).encoded(), as: UTF8.self)
    json = json.replacingOccurrences(
      of: #""formatVersion" : 1"#,
      with: #""formatVersion" : 2, "addedByANewerRelease" : true"#
    )
    let newer = Data(json.utf8)
    let storage = InMemoryStorage(data: newer)
    let store = makeStore(AppFeature.State(), storage: storage)

    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [])
    }
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .readOnly(formatVersion: 2)
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.list.standups = [.mock]
    }
    #expect(store.state.persistence.problem?.contains("Read-only") == true)

    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) { $0.alert = .changesRefused }
    await store.send(.alert(.dismiss)) { $0.alert = nil }

    await store.send(.list(.standupTapped(id: Standup.mock.id)))
    await store.receive(\.list.delegate.standupTapped) {
      $0.path.append(.detail(StandupDetail.State(standup: .mock)))
    }
    var withoutMeetings = Standup.mock
    withoutMeetings.meetings = []
    await store.deleteMeeting(at: 0, onDetail: 0, leaving: withoutMeetings)
    await store.receive(\.path[id: 0].detail.delegate.standupUpdated) {
      $0.path[id: 0, case: \.detail]?.standup = .mock
      $0.alert = .changesRefused
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(\.path[id: 0].detail.startMeetingButtonTapped) {
      $0.path[id: 0, case: \.detail]?.alert = .speechRecognitionDenied
    }
    await store.send(\.path[id: 0].detail.alert.presented.continueWithoutRecording) {
      $0.path[id: 0, case: \.detail]?.alert = nil
    }
    await store.receive(\.path[id: 0].detail.delegate.startMeeting) { $0.alert = .changesRefused }

    await store.send(.persistence(.flushPendingSave))
    #expect(storage.saveCount == 0)
    #expect(storage.data == newer)
  }

  // MARK: - Editing, deleting and flushing keep the latest data

  @Test func theEditFormKeepsAMeetingRecordedUnderIt() async {
    let a = Standup.engineeringMock
    var form = StandupForm.State(standup: a)
    form.standup.title = "Platform"
    let storage = InMemoryStorage(loaded: [a])
    let store = makeStore(
      .loaded(
        [a],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .record(RecordMeeting.State(standup: a)),
        ]),
        destination: .edit(form)
      ),
      storage: storage
    )
    let recorded = a.adding(meetingWithTranscript: "Under the sheet", id: 0)
    var edited = recorded
    edited.title = "Platform"

    await store.send(\.path[id: 1].record.delegate.save, "Under the sheet") {
      $0.path.pop(from: 1)
      $0.path[id: 0, case: \.detail]?.standup = recorded
      $0.list.standups = [recorded]
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.path[id: 0, case: \.detail]?.standup = edited
      $0.list.standups = [edited]
      $0.persistence.hasUnsavedChanges = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) {
      $0.persistence.hasUnsavedChanges = false
      $0.persistence.revision = 2
    }
    #expect(storage.savedStandups == [edited])
    await finishSaving(store)
  }

  @Test func deletingFromTheListRemovesEveryScreenOfTheStandupAndEndsTheirEffects() async {
    let storage = InMemoryStorage(loaded: [.mock, .engineeringMock])
    let store = makeStore(
      .loaded(
        [.mock, .engineeringMock],
        path: StackState([
          .detail(StandupDetail.State(standup: .mock)),
          .record(RecordMeeting.State(standup: .mock)),
        ])
      ),
      storage: storage
    )

    await store.send(\.path[id: 1].record.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 1].record.timerTick) {
      $0.path[id: 1, case: \.record]?.secondsElapsed = 1
    }
    await store.send(.list(.deleteButtonTapped(id: Standup.mock.id))) {
      $0.list.alert = .deleteStandup(.mock)
    }
    await store.send(.list(.alert(.presented(.confirmDeletion(id: Standup.mock.id))))) {
      $0.list.alert = nil
    }
    await store.receive(\.list.delegate.deleteStandup, Standup.mock.id) {
      $0.list.standups = [.engineeringMock]
      $0.path = StackState()
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    await clock.advance(by: .seconds(60))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    #expect(storage.savedStandups == [.engineeringMock])
    await expectNothingLeftRunning(store)
  }

  @Test func aWriteScheduledBeforeAFlushNeverLandsAfterIt() async {
    let storage = InMemoryStorage(loaded: [.mock, .engineeringMock])
    let firstWrite = Gate()
    storage.beforeEachSave { revision in
      if revision == 1 { await firstWrite.wait() }
    }
    let store = makeStore(.loaded([.mock, .engineeringMock]), storage: storage)
    store.exhaustivity = .off

    await store.send(.list(.deleteButtonTapped(id: Standup.mock.id)))
    await store.send(.list(.alert(.presented(.confirmDeletion(id: Standup.mock.id)))))
    await store.receive(\.list.delegate.deleteStandup)
    await store.send(.list(.deleteButtonTapped(id: Standup.engineeringMock.id)))
    await store.send(.list(.alert(.presented(.confirmDeletion(id: Standup.engineeringMock.id)))))
    await store.receive(\.list.delegate.deleteStandup)
    #expect(store.state.persistence.hasUnsavedChanges)

    await store.send(.persistence(.flushPendingSave)).finish()
    #expect(storage.savedStandups == [])
    firstWrite.open()
    await store.skipInFlightEffects(strict: false)
    await firstWrite.waitUntilPassed()
    #expect(storage.savedStandups == [])
    #expect(storage.saveCount == 1)
  }

  // MARK: - A save failure never replaces a question

  @Test func aSaveFailureWaitsForTheAlertTheUserIsAnswering() async {
    let storage = InMemoryStorage(loaded: [.mock, .engineeringMock])
    let failure = StorageError.writeFailed(
      FileProblem(path: "/data/standups.json", reason: .diskFull, technicalDetail: "ENOSPC")
    )
    storage.failSaves(with: failure)
    let write = Gate()
    storage.beforeEachSave { _ in await write.wait() }
    let store = makeStore(.loaded([.mock, .engineeringMock]), storage: storage)

    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData) {
      $0.list.standups.append(.productMock)
      $0.persistence.isSaving = true
      $0.persistence.revision = 1
    }
    await store.send(.list(.deleteButtonTapped(id: Standup.engineeringMock.id))) {
      $0.list.alert = .deleteStandup(.engineeringMock)
    }
    write.open()
    await store.receive(\.persistence.saveFailed, failure) {
      $0.persistence.hasUnsavedChanges = true
      $0.persistence.lastWriteError = failure
      $0.persistence.waitingAlerts = [.saveFailed(failure)]
    }
    #expect(store.state.list.alert == .deleteStandup(.engineeringMock))

    await store.send(.list(.alert(.dismiss))) {
      $0.list.alert = nil
      $0.persistence.waitingAlerts = []
      $0.alert = .saveFailed(failure)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    await expectNothingLeftRunning(store)
  }

  // MARK: - What the review of the first version found

  @Test func aFileFromANewerReleaseThatCannotBeReadOpensReadOnlyWithoutOfferingToReplaceIt()
    async
  {
    let newer = Data(#"{"formatVersion": 4, "standups": [{"renamedEverything": true}]}"#.utf8)
    let storage = InMemoryStorage(data: newer)
    let store = makeStore(AppFeature.State(), storage: storage)

    await store.send(.onTask) {
      $0.persistence.status = .loading
    }
    await store.receive(\.persistence.standupsLoaded) {
      $0.persistence.status = .readOnly(formatVersion: 4)
      $0.alert = .unreadableNewerRelease(formatVersion: 4)
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData) { $0.alert = .changesRefused }
    await store.send(.persistence(.flushPendingSave))
    #expect(storage.data == newer)
    #expect(storage.backups.isEmpty)
  }

  @Test func aFormOpenedWhileLoadingCannotChangeDataThatTurnsOutReadOnly() async throws {
    let newer = try newerReleaseFile(holding: [.mock])
    let storage = InMemoryStorage(data: newer)
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(AppFeature.State(), storage: storage)
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup)
    await store.send(\.destination.add.titleChanged, "Added while loading")
    load.open()
    await store.receive(\.persistence.standupsLoaded)
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.alert = .changesRefused
    }
    #expect(store.state.list.standups == [.mock])
    #expect(storage.data == newer)
  }

  @Test func changesOnADeepLinkBeforeTheAppStartsLoadingAreKept() async {
    let storage = InMemoryStorage(standups: [Self.storedEngineering])
    let stale = Standup.engineeringMock
    let store = makeStore(
      AppFeature.State(path: StackState([.detail(StandupDetail.State(standup: stale))])),
      storage: storage
    )
    store.exhaustivity = .off
    var renamed = stale
    renamed.title = "Platform"
    var form = StandupForm.State(standup: stale)
    form.standup.title = "Platform"

    await store.send(\.path[id: 0].detail.editButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.editStandup)
    await store.send(\.destination.edit.titleChanged, "Platform")
    await store.send(.doneEditingButtonTapped)
    await store.send(.onTask)
    await store.receive(\.persistence.standupsLoaded)

    var merged = Self.storedEngineering
    merged.title = "Platform"
    #expect(store.state.list.standups == [merged])
    #expect(store.state.path[id: 0, case: \.detail]?.standup == merged)
    await store.send(.persistence(.flushPendingSave)).finish()
    #expect(storage.savedStandups == [merged])
  }

  @Test func quittingWhileTheStandupsLoadStillWritesWhatWasAdded() async {
    let storage = InMemoryStorage(standups: [.mock])
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(AppFeature.State(), storage: storage)
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(.list(.loadSampleDataButtonTapped))
    await store.receive(\.list.delegate.loadSampleData)
    let flush = await store.send(.persistence(.flushPendingSave))
    load.open()
    await flush.finish()

    #expect(storage.savedStandups == [.mock, .engineeringMock, .productMock])
    await store.skipReceivedActions(strict: false)
  }

  @Test func screensOfStandupsTheReadOnlyDataLacksAreClosed() async throws {
    let storage = InMemoryStorage(data: try newerReleaseFile(holding: [.mock]))
    let load = Gate()
    storage.beforeEachLoad { await load.wait() }
    let store = makeStore(
      AppFeature.State(
        path: StackState([.detail(StandupDetail.State(standup: Self.storedEngineering))])
      ),
      storage: storage
    )
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(\.path[id: 0].detail.deleteMeetings, [0])
    await store.send(
      \.path[id: 0].detail.alert.presented.confirmMeetingDeletion,
      [Self.storedEngineering.meetings[0].id])
    load.open()
    await store.receive(\.persistence.standupsLoaded) {
      $0.list.standups = [.mock]
      $0.path = StackState()
      $0.alert = .changesDiscarded
    }
  }

  @Test func alertsHeldBackAreAllShownInTurn() async {
    let problem = FileProblem(path: "/data/standups.json", reason: .diskFull, technicalDetail: "")
    let saveFailure = StorageError.writeFailed(problem)
    let backupFailure = StorageError.backupFailed(problem)
    let store = makeStore(
      AppFeature.State(
        list: StandupsList.State(standups: [.mock]),
        persistence: .status(.notSaving(.unreadable(problem)))
      ),
      storage: InMemoryStorage(unreadable: problem)
    )
    store.exhaustivity = .off

    await store.send(.list(.deleteButtonTapped(id: Standup.mock.id)))
    await store.send(.persistence(.saveFailed(saveFailure)))
    await store.send(.persistence(.saveFailed(saveFailure)))
    await store.send(.persistence(.unreadableDataKeptAside(.failure(backupFailure), then: .empty)))
    #expect(store.state.alert == nil)
    #expect(
      store.state.persistence.waitingAlerts == [
        .saveFailed(saveFailure), .backupFailed(backupFailure),
      ])

    await store.send(.list(.alert(.dismiss))) { $0.alert = .saveFailed(saveFailure) }
    await store.send(.alert(.dismiss)) { $0.alert = .backupFailed(backupFailure) }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  /// The bytes of a file a newer release wrote, holding `standups` in a shape this one reads.
  private func newerReleaseFile(holding standups: IdentifiedArrayOf<Standup>) throws -> Data {
    let json = String(decoding: try StandupsFile(standups: standups).encoded(), as: UTF8.self)
    return Data(
      json.replacingOccurrences(of: #""formatVersion" : 1"#, with: #""formatVersion" : 2"#).utf8)
  }

  // MARK: - Helpers

  /// Starts loading, and checks that the load fails with `error` and shows the alert.
  private func loadFailing(
    _ store: TestStore<AppFeature.State, AppFeature.Action>,
    with error: StorageError
  ) async {
    await store.send(.onTask) {
      $0.persistence.status = .loading
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad(baseline: [])
    }
    await store.receive(\.persistence.standupsLoaded, .failure(error)) {
      $0.persistence.status = .notSaving(error)
      $0.persistence.changesBeforeLoad = AppFeature.ChangesBeforeLoad()
      $0.alert = .dataFailedToLoad(error)
    }
  }

  /// Lets the quiet second after a write pass, and checks that nothing is left running.
  private func finishSaving(_ store: TestStore<AppFeature.State, AppFeature.Action>) async {
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
    await expectNothingLeftRunning(store)
  }
}

/// Holds whoever waits until it is opened. Waiting ignores cancellation, as a disk write does.
final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, [])
  )
  private let passed = Mutex<[CheckedContinuation<Void, Never>]>([])
  private let passedCount = Atomic<Int>(0)

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiters.append(continuation) }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
    passedCount.add(1, ordering: .relaxed)
    for waiter in passed.withLock({ waiters in
      defer { waiters = [] }
      return waiters
    }) {
      waiter.resume()
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until someone has passed the gate.
  func waitUntilPassed() async {
    await withCheckedContinuation { continuation in
      let hasPassed = passed.withLock { waiters in
        if passedCount.load(ordering: .relaxed) > 0 { return true }
        waiters.append(continuation)
        return false
      }
      if hasPassed { continuation.resume() }
    }
  }
}

/// A temporary directory, removed when released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The names in the directory.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path)
  }
}
