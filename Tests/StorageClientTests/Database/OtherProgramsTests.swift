import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageTestSupport
import Testing

@testable import StorageClient

#if canImport(Glibc)
  import Glibc
#endif

/// Other programs share the database: one holds its write lock, one writes a row no standup may
/// hold, one empties the change log, one moves or replaces the file. None of them stops this
/// instance reading, writing what it can, and saying what it cannot.
struct OtherProgramsTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aLoadReadsEveryStandupWhileAnotherProgramHoldsTheWriteLock() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let lock = try #require(await WriteLock(onDatabaseAt: folder.databasePath))

    let stored = try await folder.database().load()

    #expect(stored.standups == [.mock, .engineeringMock])
    #expect(stored.access == .readWrite)
    #expect(stored.opening == .finished(OpeningReport()), "nothing to recover, nothing to wait for")
    await lock.release()
  }

  @Test func whatOpeningWritesWaitsForTheLockAndIsDoneOnceItIsFree() async throws {
    let crashed = folder.database { $0.owner = "pid:999999999" }
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock]))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(7)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "the build is green"))
    let lock = try #require(await WriteLock(onDatabaseAt: folder.databasePath))
    let database = folder.database { $0.busyTimeout = 0.05 }

    let stored = try await database.load()

    #expect(stored.standups == [.engineeringMock], "shown at once")
    guard case .waiting(let error) = stored.opening else {
      Issue.record("Expected opening to wait, got \(stored.opening)")
      return
    }
    #expect(error.isWorthRetrying)
    await #expect(throws: StorageError.self) { try await database.finishOpening() }
    await lock.release()

    let report = try await database.finishOpening()

    #expect(report.recoveredMeetings.map(\.meeting.id) == [Meeting.ID(UUID(7))])
    #expect(
      report.standups[id: Standup.engineeringMock.id]?.meetings.map(\.transcript)
        == ["the build is green"])
    #expect(try await database.finishOpening() == OpeningReport(), "done once")
  }

  @Test func aRowAnotherProgramBreaksIsSkippedAndNamedAndEverythingElseGoesOn() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let watching = folder.database()
    _ = try await watching.load()
    let other = try DatabaseQueue(path: folder.databasePath)
    try await other.write { db in
      try db.execute(
        sql: "UPDATE standup SET theme = 'nonsense' WHERE id = ?",
        arguments: [Standup.mock.id.rawValue.uuidString])
    }
    let writer = folder.database()
    _ = try await writer.load()
    try await writer.apply(.edited(Standup.engineeringMock.id, StandupEdit(title: "Eng")))

    let changes = try #require(try await watching.changesElsewhere())

    #expect(changes.standups.map(\.title) == ["Eng"], "the other change is shown")
    #expect(changes.unreadable.map(\.title) == ["Design"])
    #expect(changes.unreadable.first?.problem.contains("nonsense") == true)
    #expect(changes.deleted.isEmpty, "an unreadable standup is not a deleted one")
    try await watching.apply(.edited(Standup.engineeringMock.id, StandupEdit(title: "Eng 2")))
    await #expect {
      try await watching.apply(.edited(Standup.mock.id, StandupEdit(title: "Mine")))
    } throws: { error in
      guard case .unreadableStandup(let unreadable) = error as? StorageError else { return false }
      return unreadable.title == "Design"
    }
    let reloaded = try await folder.database().load()
    #expect(reloaded.standups.map(\.title) == ["Eng 2"])
    #expect(reloaded.unreadable.map(\.title) == ["Design"])
    let theme = try await other.read { db in
      try String.fetchOne(
        db, sql: "SELECT theme FROM standup WHERE id = ?",
        arguments: [Standup.mock.id.rawValue.uuidString])
    }
    #expect(theme == "nonsense", "left as it is")
  }

  @Test func aChangeLogAnotherProgramEmptiedFallsBackToReadingEverything() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let watching = folder.database()
    _ = try await watching.load()
    let writer = folder.database()
    _ = try await writer.load()
    try await writer.apply(.edited(Standup.mock.id, StandupEdit(title: "Seen")))
    _ = try await watching.changesElsewhere()
    let other = try DatabaseQueue(path: folder.databasePath)
    try await other.write { db in try db.execute(sql: "DELETE FROM standupChange") }

    try await writer.apply(.edited(Standup.mock.id, StandupEdit(title: "After the log emptied")))
    try await writer.apply(.deleted(Standup.engineeringMock.id))
    let changes = try #require(try await watching.changesElsewhere())

    #expect(changes.isComplete)
    #expect(changes.standups.map(\.title) == ["After the log emptied"])
    var shown: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock]
    changes.apply(to: &shown)
    #expect(shown.map(\.title) == ["After the log emptied"])
  }

  @Test func aDatabaseMovedAwayWhileOpenIsNoticedAndNeverWrittenAgain() async throws {
    try await folder.seed([.mock])
    let database = folder.database()
    _ = try await database.load()
    try FileManager.default.moveItem(
      atPath: folder.databasePath, toPath: folder.path("moved.sqlite"))

    await #expect {
      try await database.changesElsewhere()
    } throws: { error in
      guard case .replaced(let problem) = error as? StorageError else { return false }
      return problem.reason == .replaced("it was removed or moved away")
    }
    await #expect(throws: StorageError.self) {
      try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Lost?")))
    }
    #expect(try await folder.database(at: folder.path("moved.sqlite")).readStandups() == [.mock])
  }

  @Test func aDatabaseReplacedWhileOpenIsNoticed() async throws {
    try await folder.seed([.mock])
    let database = folder.database()
    _ = try await database.load()
    try await folder.seed([.engineeringMock], at: folder.path("other.sqlite"))
    #expect(rename(folder.path("other.sqlite"), folder.databasePath) == 0)

    await #expect {
      try await database.apply(.added([.productMock]))
    } throws: { error in
      guard case .replaced(let problem) = error as? StorageError else { return false }
      return problem.reason == .replaced("another file was put in its place")
    }
    #expect(try await folder.database().readStandups() == [.engineeringMock])
  }

  @Test func aDatabaseWithASecondNameIsOnlyRead() async throws {
    try await folder.seed([.mock])
    #expect(link(folder.databasePath, folder.path("second-name.sqlite")) == 0)

    let stored = try await folder.database(at: folder.path("second-name.sqlite")).load()

    #expect(stored.standups == [.mock])
    #expect(stored.access == .readOnly(.anotherName(path: folder.path("second-name.sqlite"))))
  }

  @Test func aCheckpointLeavesTheDatabaseFileWholeOnItsOwn() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))

    try await database.checkpoint()

    let copy = folder.path("copy.sqlite")
    try FileManager.default.copyItem(atPath: folder.databasePath, toPath: copy)
    #expect(try await folder.database(at: copy).readStandups() == [.mock, .engineeringMock])
  }

  /// A second handle on the file the app opened (the teams', beside the live app) never makes
  /// a database where the file was: not when the path is empty, nor when the file is moved away
  /// between the look at the path and SQLite's opening, which makes a file at a path with none.
  @Test func aHandleThatMustNotMakeTheFileLeavesAPathMovedAwayEmpty() async throws {
    try await folder.seed([.mock])
    let secondHandle = folder.database { $0.makesTheFileWhenMissing = false }
    let looked = try #require(FileIdentity(ofFileAt: folder.databasePath))
    #expect(rename(folder.databasePath, folder.path("moved.sqlite")) == 0)

    await #expect(throws: StorageError.self) { try await secondHandle.load() }
    #expect(!FileManager.default.fileExists(atPath: folder.databasePath))

    await #expect(throws: StorageError.self) {
      try await secondHandle.openForWriting(folder.databasePath, expecting: looked)
    }
    #expect(
      !FileManager.default.fileExists(atPath: folder.databasePath), "nothing made in its place")
    #expect(try await folder.database(at: folder.path("moved.sqlite")).readStandups() == [.mock])
  }
}
