import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageTestSupport
import Testing

@testable import StorageClient

/// A machine in several teams: each standup is in one team, its changes go to that team's
/// outbox alone, and no team's order reaches another team's standup (TeamSync's rule 1,
/// `TeamLedger`).
struct TeamLedgerTeamsTests: LedgerTesting {
  static let server = "postgresql://alice@127.0.0.1/team"

  /// A machine in "platform", sharing Design, and in "design", sharing Engineering.
  func inTwoTeams() async throws -> (StandupsDatabase, TeamMembership, TeamMembership) {
    let database = StandupsDatabase(inMemoryHolding: [.mock, .engineeringMock])
    _ = try await database.load()
    let platform = try await database.joinTeam(
      server: Self.server, team: "platform", machine: UUID())
    let design = try await database.joinTeam(server: Self.server, team: "design", machine: UUID())
    #expect(try await database.share([Standup.mock.id], with: platform.id) == [Standup.mock.id])
    #expect(
      try await database.share([Standup.engineeringMock.id], with: design.id)
        == [Standup.engineeringMock.id])
    return (database, platform, design)
  }

  @Test func eachChangeGoesOnlyToTheOutboxOfItsStandupsTeam() async throws {
    let (database, platform, design) = try await inTwoTeams()
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Design, edited")))
    try await database.apply(
      .edited(Standup.engineeringMock.id, StandupEdit(title: "Engineering, edited")))
    try await database.apply(.deleted(Standup.engineeringMock.id))

    let toPlatform = try await database.waitingTeamChanges(in: platform.id, limit: 10)
      .map { try decode($0.change) }
    let toDesign = try await database.waitingTeamChanges(in: design.id, limit: 10)
      .map { try decode($0.change) }
    #expect(toPlatform.allSatisfy { $0.standupIDs == [Standup.mock.id] })
    #expect(toPlatform.count == 2)
    #expect(toDesign.allSatisfy { $0.standupIDs == [Standup.engineeringMock.id] })
    #expect(toDesign.count == 3)
    #expect(try await database.waitingTeamChangeCount() == 5)
  }

  @Test func aStandupSharedWithOneTeamIsNotSharedWithAnother() async throws {
    let (database, platform, design) = try await inTwoTeams()
    #expect(try await database.share([Standup.mock.id], with: design.id).isEmpty)
    #expect(try await database.sharedStandupIDs(in: platform.id) == [Standup.mock.id])
    #expect(try await database.sharedStandupIDs(in: design.id) == [Standup.engineeringMock.id])
    #expect(try await database.waitingTeamChanges(in: design.id, limit: 10).count == 1)
  }

  @Test func aChangeOfOneTeamAboutAnotherTeamsStandupIsSkippedAndSaysSo() async throws {
    let (database, _, design) = try await inTwoTeams()
    var carried = Standup.mock
    carried.title = "Design, as design's order has it"
    let meeting = Meeting(id: Meeting.ID(UUID()), date: Date(), transcript: "Heard in design")
    let pulled: [StandupsChange] = [
      .edited(Standup.mock.id, StandupEdit(title: "Renamed from design")),
      .added([carried]),
      .meetingRecorded(meeting, standup: carried),
      .deleted(Standup.mock.id),
    ]
    let report = try await database.applyPulledTeamChanges(
      try pulled.enumerated().map { offset, change in
        PulledTeamChange(
          sequence: Int64(offset + 1), machine: other, machineSequence: Int64(offset + 1),
          madeBy: "mallory", change: try encode(change))
      }, in: design.id, through: Int64(pulled.count), as: "alice")

    #expect(report.skipped.count == pulled.count)
    #expect(
      report.skipped.allSatisfy {
        $0.reason == "it is about a standup shared here with another team"
      })
    #expect(try await database.readStandups()[id: Standup.mock.id] == .mock)
    #expect(try await database.teamDeletionQuestions().isEmpty)
    #expect(try await database.waitingTeamChanges(in: design.id, limit: 10).count == 1)
  }

  @Test func leavingOneTeamLeavesTheOtherAsItWas() async throws {
    let (database, platform, design) = try await inTwoTeams()
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Design, edited")))
    let designWaiting = try await database.waitingTeamChanges(in: design.id, limit: 10)

    #expect(try await database.leaveTeam(platform.id) == 1)

    #expect(try await database.teamMemberships().map(\.team) == ["design"])
    #expect(try await database.sharedStandupTeams() == [Standup.engineeringMock.id: design.id])
    #expect(try await database.waitingTeamChanges(in: design.id, limit: 10) == designWaiting)
    #expect(try await database.waitingTeamChangeCount() == designWaiting.count)
    // NB: Personal now: an edit goes nowhere.
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Mine alone")))
    #expect(try await database.waitingTeamChangeCount() == designWaiting.count)
  }

  @Test func joiningATeamAgainStartsItsPlaceAgainAndKeepsWhatItShares() async throws {
    let (database, platform, _) = try await inTwoTeams()
    let again = try await database.joinTeam(
      server: Self.server, team: "platform", machine: UUID())
    #expect(again.id == platform.id)
    #expect(again.machine != platform.machine)
    #expect(again.lastSequence == 0)
    #expect(try await database.sharedStandupIDs(in: platform.id) == [Standup.mock.id])
    #expect(try await database.teamMemberships().count == 2)
  }

  /// A database of the release before, in one team: its rows are that team's, and its outbox
  /// numbers go on from the last it ever gave, which the server may hold.
  @Test func aDatabaseOfOneTeamKeepsItsRowsAndItsNumbersInThatTeam() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabaseOfTheReleaseBefore(at: folder.databasePath)

    let database = StandupsDatabase(path: folder.databasePath)
    _ = try await database.load()
    let membership = try #require(try await database.teamMemberships().first)
    #expect(membership.team == "platform" && membership.lastSequence == 7)
    #expect(try await database.sharedStandupIDs(in: membership.id) == [Standup.mock.id])
    #expect(
      try await database.teamMachinesSeen(in: membership.id)
        == [MemberMachine(madeBy: "bob", machine: other): 4])
    #expect(
      try await database.waitingTeamChanges(in: membership.id, limit: 10).map(\.machineSequence)
        == [1, 2, 3])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Design, again")))
    #expect(
      try await database.waitingTeamChanges(in: membership.id, limit: 10).map(\.machineSequence)
        == [1, 2, 3, 6])
  }

  /// A database of the release before ("standups v7"), in one team, "platform": it shares
  /// Design, has seen bob's change 4, and waits with outbox changes 1–3 of 5 given.
  func makeDatabaseOfTheReleaseBefore(at path: String) async throws {
    let queue = try DatabaseQueue(path: path)
    _ = try await queue.writeWithoutTransaction {
      try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL")
    }
    try Schema.migrator.migrate(queue, upTo: "standups v7")
    try await queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO standup (id, position, title, durationMilliseconds, theme)
          VALUES (?, 0, 'Design', 300000, 'bubblegum');
          INSERT INTO teamMembership (singleton, server, team, machine, lastSequence)
          VALUES (1, ?, 'platform', ?, 7);
          INSERT INTO sharedStandup (standupId) VALUES (?);
          INSERT INTO teamMachineSeen (madeBy, machine, machineSequence) VALUES ('bob', ?, 4);
          """,
        arguments: [
          Standup.mock.id.rawValue.uuidString, Self.server, UUID().uuidString,
          Standup.mock.id.rawValue.uuidString, other.uuidString,
        ])
      for _ in 1...5 {
        try db.execute(
          sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, 7)",
          arguments: [try encode(.edited(Standup.mock.id, StandupEdit(title: "Design")))])
      }
      // NB: Changes 4 and 5 came back in a pull: the server holds them.
      try db.execute(sql: "DELETE FROM teamOutbox WHERE sequence > 3")
    }
    try queue.close()
  }

  /// The release before's database, held by another program at launch (`sqlite3` after
  /// `BEGIN EXCLUSIVE`): its team tables cannot be migrated yet, so reading them says so, rather
  /// than failing on a column they do not have yet. Once the program lets go, they read.
  @Test func aDatabaseOfTheReleaseBeforeHeldAtLaunchSaysSoUntilItIsMigrated() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabaseOfTheReleaseBefore(at: folder.databasePath)
    let lock = try #require(await WriteLock(onDatabaseAt: folder.databasePath))
    let database = StandupsDatabase(path: folder.databasePath)
    let stored = try await database.load()
    guard case .waiting = stored.opening else {
      Issue.record("opening finished while another program held the lock: \(stored.opening)")
      return
    }
    for read in [
      { _ = try await database.teamMemberships() },
      { _ = try await database.waitingTeamChangeCount() },
      { _ = try await database.sharedStandupTeams() },
    ] as [() async throws -> Void] {
      let error = try await #require(throws: StorageError.self) { try await read() }
      #expect(error.isWaitingForAnotherProgram)
    }

    await lock.release()
    _ = try await database.finishOpening()
    #expect(try await database.teamMemberships().map(\.team) == ["platform"])
    #expect(try await database.waitingTeamChangeCount() == 3)
  }

  /// The release before's database on a full disk: migrating it fails and rolls back, so its
  /// team tables say the disk is full, not that another program holds it; nothing of it
  /// changed, and once there is room it migrates with every row.
  @Test func aDatabaseOfTheReleaseBeforeOnAFullDiskSaysSoAndLosesNothing() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabaseOfTheReleaseBefore(at: folder.databasePath)
    let pages = try await DatabaseQueue(path: folder.databasePath).read { db in
      try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
    }
    var options = StandupsDatabase.Options()
    options.maximumPageCount = pages
    let full = StandupsDatabase(path: folder.databasePath, options: options)
    guard case .waiting = try await full.load().opening else {
      Issue.record("the migration found room it should not have")
      return
    }
    let error = try await #require(throws: StorageError.self) {
      try await full.teamMemberships()
    }
    guard case .writeFailed(let problem) = error, problem.reason == .diskFull else {
      Issue.record("not told the disk is full: \(error)")
      return
    }
    let identifiers = try await DatabaseQueue(path: folder.databasePath).read { db in
      try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
    }
    #expect(identifiers.last == "standups v7", "the migration rolled back")

    let database = StandupsDatabase(path: folder.databasePath)
    _ = try await database.load()
    #expect(try await database.teamMemberships().map(\.team) == ["platform"])
    #expect(try await database.waitingTeamChangeCount() == 3)
  }
}
