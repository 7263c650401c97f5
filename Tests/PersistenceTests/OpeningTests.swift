import AppFeature
import Composable
import ComposableTestSupport
import Foundation
import IdentifiedCollections
import MeetingFeature
import Models
import Persistence
import StandupDetail
import StorageClient
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The app starts from what the storage loaded: its standups, or why they cannot be written, and
/// never writes over what it could not read.
@MainActor
struct OpeningTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aReadOnlyDatabaseIsShownChangesStayInMemoryAndTheUserIsTold() async throws {
    try await folder.seed([.mock])
    chmod(folder.databasePath, 0o444)
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.databasePath))
    let store = await makeStore(on: folder.database())
    let reason = ReadOnlyReason.readOnlyFile(path: folder.databasePath)
    #expect(store.state.app.list.standups == [.mock])
    #expect(store.state.storage.status == .readOnly(reason))
    #expect(store.state.alert == .readOnly(reason))

    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
    await store.send(.app(.list(.delegate(.loadSampleData)))) {
      $0.app.list.standups = [.mock, .engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged) {
      $0.storage.hasChangesOnlyInMemory = true
    }

    #expect(store.state.storage.hasChangesNotInTheDataFile)
    #expect(store.state.storage.problem == "Read-only: \(reason)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.databasePath)) == before)
  }

  /// A recovery file can bring changes back, never a deletion: where nothing is written, a
  /// delete is refused, and every screen stays as it was.
  @Test func aDeleteWhereNothingIsWrittenIsRefusedAndNoScreenCloses() async throws {
    try await folder.seed([.mock])
    chmod(folder.databasePath, 0o444)
    let meeting = Standup.mock.meetings[0]
    let store = await makeStore(
      on: folder.database(),
      path: StackState([
        .detail(StandupDetail.State(standup: .mock)),
        .meeting(MeetingFeature.State(meeting: meeting, standup: .mock)),
      ]))
    let reason = ReadOnlyReason.readOnlyFile(path: folder.databasePath)
    let problem = "Read-only: \(reason)"
    let (detail, meetingScreen) = (store.state.app.path.ids[0], store.state.app.path.ids[1])
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }

    await store.send(
      .app(
        .path(.element(id: meetingScreen, action: .meeting(.delegate(.deleteMeeting(meeting.id))))))
    )
    await store.receive(\.app.delegate.deletionRefused) {
      $0.alert = .deletionRefused(problem)
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
    await store.send(
      .app(.path(.element(id: detail, action: .detail(.delegate(.deleteStandup(Standup.mock.id))))))
    )
    await store.receive(\.app.delegate.deletionRefused) {
      $0.alert = .deletionRefused(problem)
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.app.delegate.deletionRefused) {
      $0.alert = .deletionRefused(problem)
    }

    #expect(store.state.app.path.ids == [detail, meetingScreen])
    #expect(store.state.app.list.standups == [.mock])
    #expect(!store.state.storage.hasChangesNotInTheDataFile, "nothing to offer in a file")
  }

  @Test func dataThatCannotBeReadIsKeptAsideOnlyWhenAskedThenEverythingShownIsWritten() async throws
  {
    let notes = Data("not a database".utf8)
    try notes.write(to: URL(fileURLWithPath: folder.databasePath))
    let store = await makeStore(on: folder.database())
    guard case .notSaving(let error) = store.state.storage.status else {
      Issue.record("Expected the data not to be saved, got \(store.state.storage.status)")
      return
    }
    #expect(store.state.alert == .dataFailedToLoad(error))

    await store.send(.app(.list(.delegate(.loadSampleData)))) {
      $0.app.list.standups = [.mock, .engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged) {
      $0.storage.hasChangesOnlyInMemory = true
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.databasePath)) == notes)

    store.exhaustivity = .off
    await store.send(.alert(.presented(.keepUnreadableDataAside(then: .empty)))) {
      $0.alert = nil
    }
    await store.receive(\.unreadableDataKeptAside)
    await store.receive(\.written)
    store.exhaustivity = .on

    #expect(store.state.storage.status == .writable)
    #expect(!store.state.storage.hasChangesNotInTheDataFile)
    let backup = try #require(store.state.storage.backup)
    #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == notes)
    #expect(try await folder.stored() == [.mock, .engineeringMock, .productMock])
  }

  @Test func aFolderAtThePathIsNeverOfferedToBeMovedAndNothingIsWritten() async throws {
    try FileManager.default.createDirectory(
      atPath: folder.databasePath, withIntermediateDirectories: true)
    let store = await makeStore(on: folder.database())
    guard case .notSaving(let error) = store.state.storage.status else {
      Issue.record("Expected the data not to be saved, got \(store.state.storage.status)")
      return
    }
    #expect(store.state.alert == .cannotSave(error))

    await store.send(.app(.list(.delegate(.loadSampleData)))) {
      $0.app.list.standups = [.mock, .engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged) {
      $0.storage.hasChangesOnlyInMemory = true
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.databasePath).isEmpty)
  }

  /// Meetings of many standups that stopped before they ended are named as every list the app
  /// tells is: the first few, and how many more.
  @Test func manyRecoveredMeetingsAreNamedAsEveryListIs() {
    let report = OpeningReport(
      recoveredMeetings: (1...5).map { index in
        RecoveredMeeting(
          standupID: Standup.ID(UUID()), standupTitle: "Team \(index)",
          meeting: Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: ""))
      })
    #expect(
      report.notices == [
        "5 meetings stopped before they ended; they are kept as past meetings of “Team 1”, "
          + "“Team 2”, “Team 3”, and 2 more."
      ])
  }
}
