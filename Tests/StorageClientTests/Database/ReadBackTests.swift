import Foundation
import GRDB
import IdentifiedCollections
import Models
import PropertyBased
import Testing

@testable import StorageClient

/// One set of rules for what a standup may hold (`StandupRules`), kept by the database, import
/// and export alike: whatever the app writes, it reads back, and a value that breaks a rule is
/// refused where it enters.
struct ReadBackTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test(arguments: [
    ("standup", "durationMilliseconds", "172800000"),
    ("standup", "durationMilliseconds", "-1"),
    ("meeting", "date", "-1e15"),
    ("meeting", "date", "1e15"),
  ])
  func aValueNoStandupMayHoldWrittenByAnotherProgramIsSkippedNeverExported(
    table: String, column: String, value: String
  ) async throws {
    try await folder.seed([.mock, .engineeringMock])
    let other = try DatabaseQueue(path: folder.databasePath)
    try await other.write { db in
      try db.execute(
        sql:
          "UPDATE \(table) SET \(column) = \(value) WHERE \(table == "standup" ? "id" : "standupId") = ?",
        arguments: [Standup.mock.id.rawValue.uuidString])
    }

    let stored = try await folder.database().load()

    #expect(stored.standups == [.engineeringMock])
    #expect(stored.unreadable.map(\.title) == ["Design"])
    let contents = try await folder.database().contents()
    #expect(contents.standups == [.engineeringMock])
    let exported = try StandupsFile(standups: contents.standups).encoded()
    #expect(try StandupsFile.decode(exported).standups == contents.standups, "reads back")
  }

  @Test func aStandupReadByItsIDIsTheOneReadingThemAllGives() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let database = folder.database()
    _ = try await database.load()
    // NB: Of two meetings with the same date, the one written later reads first.
    let twin = Meeting(
      id: Meeting.ID(UUID(7)), date: Standup.mock.meetings[0].date, transcript: "twin")
    try await database.apply(.meetingRecorded(twin, standup: .mock))

    let other = try DatabaseQueue(path: folder.databasePath)
    try await other.read { db in
      let all = try StandupRows.fetchAll(db).standups
      #expect(all[id: Standup.mock.id]?.meetings.first == twin)
      for standup in all {
        #expect(try StandupRows.fetchOne(db, id: standup.id) == standup)
      }
      #expect(try StandupRows.fetchOne(db, id: Standup.ID(UUID(0xDEAD))) == nil)
    }
  }

  @Test func aMeetingDatedBeyondWhatExportCanWriteIsRefusedWhereItEnters() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.engineeringMock]))
    let meeting = Meeting(
      id: Meeting.ID(UUID(9)), date: Date(timeIntervalSinceReferenceDate: -1e15),
      transcript: "before time")

    await #expect {
      try await database.apply(.meetingRecorded(meeting, standup: .engineeringMock))
    } throws: { error in
      guard case .refused(.breaksRule(let title, let violation)) = error as? StorageError
      else { return false }
      return title == "Engineering" && violation.path == "meetings[0].date"
    }
    #expect(try await database.readStandups() == [.engineeringMock])
  }

  @Test func everyStandupTheDatabaseHoldsReadsBackFromItsExport() async throws {
    var random = Xoshiro(seed: (3, 5, 8, 13))
    let standups = IdentifiedArray(
      uniqueElements: (0..<40).map { _ in Standup.random(using: &random) })
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added(standups.elements))

    let exported = try StandupsFile(standups: try await database.readStandups()).encoded()

    #expect(try StandupsFile.decode(exported).standups == standups)
  }
}
