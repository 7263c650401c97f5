import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import PropertyBased
import StorageClient
import Testing

/// The database keeps what it is given, and each change writes what it changes and nothing
/// else.
struct StandupsDatabaseTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aNewDatabaseIsEmptyAndWritableAndMadeInItsFolder() async throws {
    let database = folder.database(at: folder.path("new/folder/standups.sqlite"))

    let stored = try await database.load()

    #expect(stored == StoredStandups(standups: []))
    #expect(try folder.mode(folder.path("new")) == 0o700, "folders are the user's only")
  }

  @Test func whatIsAddedLoadsBackEqualInAnotherConnection() async throws {
    let standups: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock, .productMock]
    let database = folder.database()
    _ = try await database.load()

    try await database.apply(.added(standups.elements))

    #expect(try await folder.database().load().standups == standups)
  }

  @Test(arguments: [1, 2, 3])
  func standupsOfAnyShapeLoadBackEqual(seed: UInt64) async throws {
    var random = Xoshiro(seed: (seed, ~seed, seed &* 31, seed ^ 0x5DEE_CE66))
    let standups = IdentifiedArray(
      uniqueElements: (0..<30).map { _ in Standup.random(using: &random) })
    let database = folder.database()
    _ = try await database.load()

    try await database.apply(.added(standups.elements))

    #expect(try await folder.database().load().standups == standups)
  }

  @Test func aTitleChangeUpdatesOneColumnOfOneRow() async throws {
    let log = StatementLog()
    let database = folder.database { $0.onStatement = log.record }
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))
    _ = log.take()

    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Design review")))

    let writes = log.take().filter(\.isWrite)
    #expect(
      writes == [
        "UPDATE standup SET title = 'Design review' WHERE id = '\(Standup.mock.id.rawValue.uuidString)'"
      ])
  }

  @Test func anAttendeeAddedInsertsOneRowAndTouchesNoOther() async throws {
    let log = StatementLog()
    let database = folder.database { $0.onStatement = log.record }
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    _ = log.take()
    let carol = Attendee(id: Attendee.ID(UUID(0xC)), name: "Carol")
    var withCarol = Standup.mock
    withCarol.attendees.append(carol)

    try await database.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: withCarol)))

    let writes = log.take().filter(\.isWrite)
    #expect(writes.count == 1)
    #expect(writes.first?.hasPrefix(#"INSERT INTO "attendee""#) == true)
    #expect(try await folder.database().load().standups == [withCarol])
  }

  @Test func anEditAppliesToTheStandupAsStoredNowKeepingWhatAnotherInstanceWrote() async throws {
    let mine = folder.database()
    let theirs = folder.database()
    _ = try await mine.load()
    try await mine.apply(.added([.mock]))
    _ = try await theirs.load()
    let carol = Attendee(id: Attendee.ID(UUID(0xC)), name: "Carol")
    var withCarol = Standup.mock
    withCarol.attendees.append(carol)
    try await theirs.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: withCarol)))

    var retitled = Standup.mock
    retitled.title = "Design review"
    try await mine.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: retitled)))

    var expected = withCarol
    expected.title = "Design review"
    #expect(try await folder.database().load().standups == [expected])
  }

  @Test func anEditOfAStandupDeletedElsewhereChangesNothing() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    try await database.apply(.deleted(Standup.mock.id))

    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Lost")))

    #expect(try await folder.database().load().standups == [])
  }

  @Test func aMeetingRecordedForAStandupDeletedElsewhereBringsTheStandupBack() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))
    try await database.apply(.deleted(Standup.mock.id))
    let meeting = Meeting(
      id: Meeting.ID(UUID(9)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "Hi")

    try await database.apply(.meetingRecorded(meeting, standup: .mock))

    var expected = Standup.mock
    expected.record(meeting)
    #expect(try await folder.database().load().standups == [.engineeringMock, expected])
  }

  @Test func aStandupAddedTwiceIsKeptOnce() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    var changed = Standup.mock
    changed.title = "Not this"

    try await database.apply(.added([changed, .engineeringMock]))

    #expect(try await folder.database().load().standups == [.mock, .engineeringMock])
  }

  /// Random changes applied to the database and to a list in memory, as the app applies them,
  /// leave the two the same after every step.
  @Test(arguments: [1, 2, 3, 4])
  func theDatabaseAndTheListAgreeAfterAnyChanges(seed: UInt64) async throws {
    var random = Xoshiro(seed: (seed, seed &* 7, ~seed, seed ^ 0xABCD))
    let database = folder.database()
    _ = try await database.load()
    var shown: IdentifiedArrayOf<Standup> = []
    for step in 0..<120 {
      let change = StandupsChange.random(in: shown, using: &random)
      change.apply(to: &shown)
      try await database.apply(change)
      if step % 20 == 19 {
        #expect(try await folder.database().load().standups == shown, "seed \(seed), step \(step)")
      }
    }
  }

}

extension StandupsChange {
  /// A change the app could make to `standups`: add, edit, delete, or record a meeting, for a
  /// standup there or (sometimes) one that is gone.
  static func random(
    in standups: IdentifiedArrayOf<Standup>,
    using random: inout some RandomNumberGenerator
  ) -> Self {
    let existing = standups.randomElement(using: &random)
    switch (Int.random(in: 0..<10, using: &random), existing) {
    case (0..<3, _), (_, nil):
      return .added([Standup.random(using: &random)])
    case (3, let standup?):
      return .deleted(standup.id)
    case (4, let standup?):
      let meeting = Meeting(
        id: Meeting.ID(UUID(Int(random.next() % 1_000_000_000))),
        date: Date(timeIntervalSince1970: Double(random.next() % 2_000_000_000)),
        transcript: "Said \(random.next() % 100)")
      return .meetingRecorded(meeting, standup: standup)
    case (_, let standup?):
      var edited = Standup.random(using: &random)
      edited = Standup(
        id: standup.id,
        attendees: Bool.random(using: &random)
          ? standup.attendees
          : IdentifiedArray(
            uniqueElements: standup.attendees.shuffled(using: &random).dropLast() + edited.attendees
          ),
        duration: Bool.random(using: &random) ? standup.duration : edited.duration,
        meetings: Bool.random(using: &random)
          ? standup.meetings : IdentifiedArray(uniqueElements: standup.meetings.dropFirst()),
        theme: edited.theme,
        title: Bool.random(using: &random) ? standup.title : edited.title
      )
      return .edited(standup.id, StandupEdit(from: standup, to: edited))
    }
  }
}

extension String {
  /// Whether a statement of the log writes a row of a standup, not counting what the triggers
  /// write for other instances (`standupChange`).
  var isWrite: Bool {
    ["INSERT", "UPDATE", "DELETE"].contains { hasPrefix($0) }
  }
}
