import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Persistence
import RecordMeeting
import SoundClient
import SpeechClient
import StandupDetail
import StandupForm
import StorageClient
import StorageTestSupport
import Testing

/// What another instance commits is shown here, without undoing anything done here.
@MainActor
struct WatchingTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aReadWhenNothingChangedDoesNothing() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database())

    await store.send(.readChangesElsewhere)
    await store.finish()
  }

  @Test func anotherInstancesEditReachesTheListAndEveryScreen() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(
      on: folder.database(), path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.edited(Standup.mock.id, StandupEdit(theme: .oxblood)))
    var changed = Standup.mock
    changed.theme = .oxblood

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound) {
      $0.app.list.standups = [changed]
      $0.app.path[id: 0, case: \.detail]?.standup = changed
    }
  }

  @Test func aStandupDeletedElsewhereClosesItsScreensHere() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(
      on: folder.database(), path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.mock.id))

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound) {
      $0.app.list.standups = [.engineeringMock]
      $0.app.path = StackState()
      $0.storage.notice =
        "“Design” was deleted in another instance of Standups, so its screens closed."
    }
    await store.send(.noticeDismissed) { $0.storage.notice = nil }
  }

  /// The question waits for the meeting to end: an alert over the recorder would take the keys
  /// typed into the transcript.
  @Test func aStandupDeletedElsewhereWhileItsMeetingIsRecordedIsAskedAboutOnceTheMeetingEnds()
    async throws
  {
    try await folder.seed([.engineeringMock])
    let store = await makeStore(
      on: folder.database(),
      path: StackState([.record(RecordMeeting.State(standup: .engineeringMock))]))
    let recorder = store.state.app.path.ids[0]
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.engineeringMock.id))

    // NB: The meeting's own writes (as it goes) are the other tests'.
    store.exhaustivity = .off
    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    #expect(store.state.alert == nil, "nothing covers the recorder")
    #expect(store.state.storage.deletedElsewhere == [Standup.engineeringMock.id])
    #expect(store.state.app.path.count == 1, "the meeting goes on")

    await store.send(
      .app(.path(.element(id: recorder, action: .record(.delegate(.save(transcript: "Done")))))))
    await store.receive(\.written)
    #expect(store.state.alert == .deletedElsewhere(.engineeringMock, whileRecording: true))
    await store.send(.alert(.presented(.keepDeletedStandup(Standup.engineeringMock.id))))
    await store.receive(\.written)

    #expect(store.state.storage.deletedElsewhere.isEmpty)
    let kept = try #require(try await folder.stored().first)
    #expect(kept.id == Standup.engineeringMock.id)
    #expect(kept.meetings.first?.transcript == "Done")
  }

  /// The recorder's timer runs on while the deletion is found, as it does in the app; the test
  /// checks what it cares about and leaves the timer running, as an integration test may.
  @Test func aRecorderKeepsTimingWhileItsStandupIsDeletedElsewhere() async throws {
    try await folder.seed([.engineeringMock])
    let clock = TestClock()
    let store = await makeStore(
      on: folder.database(),
      path: StackState([.record(RecordMeeting.State(standup: .engineeringMock))]),
      clock: clock)
    store.dependencies.speechClient.authorizationStatus = { .denied }
    store.dependencies.soundClient.playSpeakerChange = {}
    let recorder = store.state.app.path.ids[0]
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.engineeringMock.id))

    store.exhaustivity = .off
    await store.send(.app(.path(.element(id: recorder, action: .record(.onTask)))))
    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    await clock.advance(by: .seconds(2))
    await store.skipReceivedActions()
    #expect(store.state.app.path[id: recorder, case: \.record]?.secondsElapsed == 2)
    #expect(store.state.storage.deletedElsewhere == [Standup.engineeringMock.id])
    await store.finish()
  }

  @Test func aTeammatesDeletionIsToldAsTheirsAndNotAnotherInstancesOfTheApp() {
    let alert = AlertState.deletedElsewhere(.mock, whileRecording: true, by: "bob")
    #expect(alert.title.string == "“Design” was deleted by bob")
    #expect(
      alert.message?.string.hasPrefix("bob deleted this standup while you were recording") == true)
    #expect(alert.message?.string.contains("the team's again, on every machine") == true)
    let here = AlertState.deletedElsewhere(.mock, whileRecording: false)
    #expect(here.message?.string.hasPrefix("Another instance of Standups deleted") == true)
  }

  /// Found by the soak: a meeting saved before the question is answered stores its standup
  /// again; letting the standup go then deletes it here too.
  @Test func aStandupLetGoAfterItsMeetingWasSavedIsDeletedHereToo() async throws {
    try await folder.seed([.engineeringMock])
    let store = await makeStore(
      on: folder.database(),
      path: StackState([.record(RecordMeeting.State(standup: .engineeringMock))]))
    let recorder = store.state.app.path.ids[0]
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.engineeringMock.id))

    store.exhaustivity = .off
    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    await store.send(
      .app(.path(.element(id: recorder, action: .record(.delegate(.save(transcript: "Done")))))))
    await store.receive(\.written)
    #expect(try await folder.stored().map(\.id) == [Standup.engineeringMock.id])
    #expect(store.state.alert == .deletedElsewhere(.engineeringMock, whileRecording: true))

    await store.send(.alert(.presented(.letDeletedStandupGo(Standup.engineeringMock.id))))
    await store.receive(\.written)
    #expect(store.state.app.list.standups.isEmpty)
    #expect(try await folder.stored().isEmpty)
  }

  /// Two forms on one standup, in two instances: the later save wins, and the user whose value
  /// it replaced is told, and may put theirs back.
  @Test func aValueReplacedByASaveElsewhereIsToldAndCanBePutBack() async throws {
    try await folder.seed([.mock])
    var form = StandupForm.State(standup: .mock)
    form.standup.title = "Design review"
    let store = await makeStore(
      on: folder.database { $0.owner = "here" },
      path: StackState([.detail(StandupDetail.State(standup: .mock))]),
      destination: .edit(form))
    let other = folder.database { $0.owner = "there" }
    _ = try await other.load()
    store.exhaustivity = .off

    await store.send(.app(.doneEditingButtonTapped))
    await store.receive(\.written)
    var theirs = Standup.mock
    theirs.title = "Design sync"
    try await other.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: theirs)))

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    #expect(store.state.app.list.standups.first?.title == "Design sync")
    let replaced = try #require(store.state.storage.replacedValues.first)
    #expect(replaced.value == .title("Design review"))
    #expect(store.state.alert == .valueReplaced(replaced))

    await store.send(.alert(.presented(.putReplacedValueBack(replaced.id))))
    await store.receive(\.written)
    await store.receive(\.written)
    #expect(store.state.app.list.standups.first?.title == "Design review")
    #expect(try await folder.stored().first?.title == "Design review")
    #expect(store.state.storage.replacedValues.isEmpty)
    #expect(try await other.changesElsewhere()?.replacedValues?.isEmpty != false)
  }

  /// A value replaced while no app was open (two instances saved and quit, or `standups sync`
  /// pulled a teammate's change) is told at the next launch, with nothing committed since.
  @Test func aValueReplacedWhileTheAppWasClosedIsToldAtLaunchAndCanBePutBack() async throws {
    try await folder.seed([.mock])
    let first = folder.database { $0.owner = "first" }
    let second = folder.database { $0.owner = "second" }
    _ = try await first.load()
    _ = try await second.load()
    var mine = Standup.mock
    mine.title = "Design review"
    var theirs = Standup.mock
    theirs.title = "Design sync"
    try await first.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: mine)))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: theirs)))

    let store = await makeStore(on: folder.database { $0.owner = "launched" })
    store.exhaustivity = .off
    let replaced = try #require(store.state.storage.replacedValues.first)
    #expect(replaced.value == .title("Design review"))
    #expect(store.state.alert == .valueReplaced(replaced))

    await store.send(.alert(.presented(.putReplacedValueBack(replaced.id))))
    await store.receive(\.written)
    await store.receive(\.written)
    #expect(try await folder.stored().first?.title == "Design review")
    #expect(store.state.storage.replacedValues.isEmpty)
  }

  /// Two instances tell the same replaced value; once one puts it back, the other's alert, on
  /// screen, closes at its next read of changes elsewhere, saying why.
  @Test func aReplacedValueAnsweredInAnotherInstanceClosesItsAlertHere() async throws {
    try await folder.seed([.mock])
    let first = folder.database { $0.owner = "first" }
    let second = folder.database { $0.owner = "second" }
    _ = try await first.load()
    _ = try await second.load()
    var mine = Standup.mock
    mine.title = "Design review"
    var theirs = Standup.mock
    theirs.title = "Design sync"
    try await first.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: mine)))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: theirs)))

    let here = await makeStore(on: folder.database { $0.owner = "here" })
    let there = await makeStore(on: folder.database { $0.owner = "there" })
    here.exhaustivity = .off
    there.exhaustivity = .off
    let replaced = try #require(here.state.storage.replacedValues.first)
    #expect(here.state.alert == .valueReplaced(replaced))
    await there.send(.alert(.presented(.putReplacedValueBack(replaced.id))))
    await there.receive(\.written)
    await there.receive(\.written)

    await here.send(.readChangesElsewhere)
    await here.receive(\.changesElsewhereFound)
    #expect(here.state.alert == nil)
    #expect(here.state.storage.replacedValues.isEmpty)
    #expect(
      here.state.storage.notice
        == "Another instance of Standups answered about the replaced value of “Design review”.")
  }

  @Test func aStandupDeletedElsewhereWhileItIsEditedHereGoesWhenTheUserLetsItGo() async throws {
    try await folder.seed([.mock, .engineeringMock])
    var form = StandupForm.State(standup: .mock)
    form.standup.title = "Design review"
    let store = await makeStore(
      on: folder.database(), path: StackState([.detail(StandupDetail.State(standup: .mock))]),
      destination: .edit(form))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.mock.id))

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound) {
      $0.alert = .deletedElsewhere(.mock, whileRecording: false)
      $0.storage.deletedElsewhere = [Standup.mock.id]
    }
    await store.send(.alert(.presented(.letDeletedStandupGo(Standup.mock.id)))) {
      $0.alert = nil
      $0.storage.deletedElsewhere = []
      $0.app.destination = nil
      $0.app.list.standups = [.engineeringMock]
      $0.app.path = StackState()
      $0.storage.pendingWrites = [.change(.deleted(Standup.mock.id))]
      $0.storage.isWriting = true
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites = []
      $0.storage.isWriting = false
    }
    #expect(try await folder.stored() == [.engineeringMock])
  }

  /// The repro of issue 39: an edit confirmed before this instance read the changes, of a standup
  /// another instance deleted, is not dropped: the user is asked, and keeping it stores it with the
  /// edit.
  @Test func anEditOfAStandupDeletedElsewhereIsNeverDroppedWithoutAWord() async throws {
    try await folder.seed([.mock])
    var form = StandupForm.State(standup: .mock)
    form.standup.title = "Design review"
    let store = await makeStore(on: folder.database(), destination: .edit(form))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.mock.id))
    var edited = Standup.mock
    edited.title = "Design review"
    store.exhaustivity = .off

    await store.send(.app(.doneEditingButtonTapped))
    await store.receive(\.changedStandupWasDeletedElsewhere, Standup.mock.id)
    #expect(store.state.alert == .deletedElsewhere(edited, whileRecording: false))
    await store.send(.alert(.presented(.keepDeletedStandup(Standup.mock.id))))
    await store.receive(\.written)

    #expect(try await folder.stored() == [edited])
  }

  @Test func aChangeNotYetWrittenHereStaysOnScreenOverAChangeElsewhere() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let other = try DatabaseQueueOnFile(folder.databasePath)
    store.exhaustivity = .off

    let lock = try #require(await WriteLock(other.queue))
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    await lock.release()
    let elsewhere = folder.database()
    _ = try await elsewhere.load()
    try await elsewhere.apply(.edited(Standup.mock.id, StandupEdit(title: "Renamed there")))

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)

    #expect(store.state.app.list.standups.isEmpty, "the deletion made here is not undone")
  }

  @Test func aRowBrokenElsewhereIsNamedOnceHoweverOftenItIsTouched() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(on: folder.database())
    let other = try DatabaseQueueOnFile(folder.databasePath)
    let design = Standup.mock.id.rawValue.uuidString
    try await other.queue.write { db in
      try db.execute(sql: "UPDATE standup SET theme = 'nonsense' WHERE id = ?", arguments: [design])
    }
    store.exhaustivity = .off

    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    let told = try #require(store.state.storage.notice)
    #expect(told.contains("“Design”"))
    // NB: Each commit that touches the row again makes the next read fetch it, and find it
    // broken as before.
    try await other.queue.write { db in
      try db.execute(sql: "UPDATE standup SET title = title WHERE id = ?", arguments: [design])
    }
    await store.send(.readChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    #expect(store.state.storage.notice == told)
  }
}
