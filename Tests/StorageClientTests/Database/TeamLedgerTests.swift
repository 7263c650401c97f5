import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// The team's outbox and the changes pulled from the server, on a database in memory: no server,
/// the server's side played by hand-made `PulledTeamChange`s.
struct TeamLedgerTests: LedgerTesting {
  @Test func aChangeToASharedStandupWaitsForTheServerAndOneToAPersonalOneNever() async throws {
    let (database, _) = try await joined(holding: [.mock, .engineeringMock])
    try await database.share([Standup.mock.id])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Shared")))
    try await database.apply(.edited(Standup.engineeringMock.id, StandupEdit(title: "Mine")))
    let waiting = try await database.waitingTeamChanges(limit: 10)
    #expect(waiting.count == 2)
    #expect(waiting.map(\.machineSequence) == waiting.map(\.machineSequence).sorted())
    #expect(try decode(waiting[1].change) == .edited(Standup.mock.id, StandupEdit(title: "Shared")))
    try await database.teamChangesPushed(through: waiting[0].machineSequence)
    #expect(try await database.waitingTeamChangeCount() == 1)
  }

  @Test func aPulledChangeToAFieldAWaitingChangeSetsLeavesTheWaitingValueAndKeepsTheRest()
    async throws
  {
    let (database, _) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    try await database.teamChangesPushed(through: .max)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))

    // NB: Another machine's change, ordered before the waiting one will be: its title loses to
    // the waiting change, its length is kept.
    let theirs = StandupsChange.edited(
      Standup.mock.id, StandupEdit(title: "Theirs", duration: .seconds(900)))
    let report = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 1, change: try encode(theirs))
      ],
      through: 2, as: "alice")
    #expect(report.standupIDs == [Standup.mock.id])
    let stored = try #require(try await database.readStandups()[id: Standup.mock.id])
    #expect(stored.title == "Waiting here")
    #expect(stored.duration == .seconds(900))
    #expect(try await database.teamMembership()?.lastSequence == 2)
    #expect(try await database.waitingTeamChangeCount() == 1)
  }

  /// A change of this machine's that comes back leaves the outbox, whether it is the first there
  /// (the order changes come back in) or not: another's change after it to the same field wins.
  @Test(arguments: [false, true])
  func theOutboxLosesTheChangesThatCameBackWhereverTheyAre(anEarlierOneStaysOut: Bool)
    async throws
  {
    let (database, machine) = try await joined(holding: [.mock, .engineeringMock])
    try await database.share([Standup.engineeringMock.id])
    try await database.share([Standup.mock.id])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Mine")))
    let mine = try await database.waitingTeamChanges(limit: 10)
    try #require(mine.count == 3)
    try await database.teamChangesPushed(through: .max)

    let back = anEarlierOneStaysOut ? Array(mine.dropFirst()) : mine
    let theirs = StandupsChange.edited(Standup.mock.id, StandupEdit(title: "Theirs"))
    let pulled =
      back.enumerated().map { index, change in
        PulledTeamChange(
          sequence: Int64(index + 1), machine: machine, machineSequence: change.machineSequence,
          madeBy: "alice", change: change.change)
      } + [
        PulledTeamChange(
          sequence: Int64(back.count + 1), machine: other, machineSequence: 1, madeBy: "bob",
          change: try encode(theirs))
      ]
    _ = try await database.applyPulledTeamChanges(
      pulled, through: Int64(pulled.count), as: "alice")
    #expect(try await database.readStandups()[id: Standup.mock.id]?.title == "Theirs")
  }

  /// A change of this machine's back in the order leaves the outbox even when the pull cannot
  /// read it: the server has it, so nothing waits for it, and it is not applied again.
  @Test func anOwnChangeBackTooLargeToReadLeavesTheOutbox() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.teamChangesPushed(through: shared.machineSequence)
    var back = shareBack(shared, from: machine)
    back.tooLarge = 9_000_000

    let report = try await database.applyPulledTeamChanges([back], through: 1, as: "alice")
    #expect(report.skipped.map(\.sequence) == [1])
    let team = try #require(try await database.teamMembership()).id
    #expect(try await database.newestPushedTeamChange(in: team) == nil)
  }

  @Test func aPulledChangeThatCannotBeReadOrBreaksARuleIsSkippedAndTheRestApplied() async throws {
    let (database, _) = try await joined(holding: [])
    let negative = """
      {"added": [{"id": "00000000-0000-0000-0000-00000000000D", "title": "Bad", "theme": "poppy",
                  "durationSeconds": -5, "attendees": [], "meetings": []}]}
      """
    let report = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 1, machine: other, machineSequence: 1, change: #"{"renamed": "nothing"}"#),
        PulledTeamChange(sequence: 2, machine: other, machineSequence: 2, change: negative),
        PulledTeamChange(
          sequence: 3, machine: other, machineSequence: 3,
          change: try encode(.added([.engineeringMock]))),
      ], through: 3, as: "alice")
    #expect(report.skipped.map(\.sequence) == [1, 2])
    #expect(try await database.readStandups().ids == [Standup.engineeringMock.id])
    #expect(try await database.sharedStandupIDs() == [Standup.engineeringMock.id])
  }

  @Test func anEditOrDeletionOfAStandupThisMachineHoldsAsItsOwnLeavesItAlone() async throws {
    // NB: This machine holds the mock as its own (it left the team and kept it); the team's
    // order deleted it meanwhile, and an edit made before the deletion was ordered after it.
    let (database, _) = try await joined(holding: [.mock])
    _ = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 7, machine: other, machineSequence: 1, madeBy: "bob",
          change: try encode(.edited(Standup.mock.id, StandupEdit(title: "The team's edit")))),
        PulledTeamChange(
          sequence: 8, machine: other, machineSequence: 2, madeBy: "bob",
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 8, as: "alice")

    #expect(try await database.readStandups().map(\.title) == [Standup.mock.title])
    #expect(try await database.sharedStandupIDs().isEmpty, "it stays this machine's own")
  }

  @Test func aPullMadeAgainFromTheStartAppliesOnlyWhatIsNewAndThenSendsAgainWhatTheServerLost()
    async throws
  {
    let (database, _) = try await joined(holding: [])
    let renamed = { (title: String) in
      try self.encode(.edited(Standup.mock.id, StandupEdit(title: title)))
    }
    // NB: What the backup kept: bob's first two changes.
    let kept = [
      PulledTeamChange(
        sequence: 1, machine: other, machineSequence: 1, madeBy: "bob",
        change: try encode(.added([.mock]))),
      PulledTeamChange(
        sequence: 2, machine: other, machineSequence: 2, madeBy: "bob", change: try renamed("Old")),
    ]
    _ = try await database.applyPulledTeamChanges(
      kept
        + [
          PulledTeamChange(
            sequence: 3, machine: other, machineSequence: 3, madeBy: "bob",
            change: try renamed("Kept here"))
        ], through: 3, as: "alice")
    try await database.apply(.edited(Standup.mock.id, StandupEdit(theme: .buttercup)))
    try await database.teamChangesPushed(through: .max)

    // NB: The server was restored to before change 3, and carol's machine made a change since.
    let team = try #require(try await database.teamMembership()).id
    try await database.startTeamAgain(team, after: 0, resending: [Standup.mock.id])
    #expect(try await database.teamMembership()?.lastSequence == 0)
    // NB: The theme was pushed; the server lost it too, so it is pushed again.
    let pushed = try #require(try await database.newestPushedTeamChange(in: team))
    #expect(try await database.waitingTeamChangeCount() == 0)
    try await database.teamChangesNotPushed(in: team, after: pushed - 1)
    #expect(try await database.waitingTeamChangeCount() == 1)
    #expect(try await database.newestPushedTeamChange(in: team) == nil)
    let carol = UUID()
    let report = try await database.applyPulledTeamChanges(
      kept
        + [
          PulledTeamChange(
            sequence: 3, machine: carol, machineSequence: 1, madeBy: "carol",
            change: try encode(.edited(Standup.mock.id, StandupEdit(duration: .seconds(900)))))
        ], through: 3, as: "alice")
    #expect(report.standupIDs == [Standup.mock.id])
    let stored = try #require(try await database.readStandups()[id: Standup.mock.id])
    #expect(stored.title == "Kept here")
    #expect(stored.duration == .seconds(900))
    #expect(stored.theme == .buttercup)

    #expect(
      try await database.lastTeamChanges(in: team)[Standup.mock.id]
        == TeamChangeOrigin(
          memberMachine: MemberMachine(madeBy: "carol", machine: carol), machineSequence: 1))
    #expect(try await database.resendTeamStandups(in: team) == 1)
    let waiting = try await database.waitingTeamChanges(limit: 10).map { try decode($0.change) }
    #expect(
      waiting.suffix(2) == [.added([stored]), .edited(stored.id, StandupEdit(restating: stored))])
    #expect(try await database.resendTeamStandups(in: team) == 0)
  }

  @Test func aSharedStandupDeletedHereIsNoLongerCountedAsShared() async throws {
    let (database, _) = try await joined(holding: [.mock, .engineeringMock])
    try await database.share([Standup.mock.id, Standup.engineeringMock.id])
    try await database.apply(.deleted(Standup.engineeringMock.id))
    #expect(try await database.sharedStandupIDs() == [Standup.mock.id])
    #expect(
      try decode(try #require(try await database.waitingTeamChanges(limit: 10).last).change)
        == .deleted(Standup.engineeringMock.id), "the deletion goes to the team")
    #expect(try await database.leaveTeam() == 1)
  }

  @Test func leavingKeepsTheStandupsAndForgetsTheTeam() async throws {
    let (database, _) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    #expect(try await database.leaveTeam() == 1)
    #expect(try await database.teamMembership() == nil)
    #expect(try await database.waitingTeamChangeCount() == 0)
    #expect(try await database.readStandups().ids == [Standup.mock.id])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Personal again")))
    #expect(try await database.waitingTeamChangeCount() == 0)
  }

  /// Leaving empties every table of the team's, each of which a team's life fills: a table the
  /// schema gains and leaving forgets would keep a team's rows in a machine that left it.
  @Test func leavingEmptiesEveryTableOfTheTeams() async throws {
    let folder = try TemporaryFolder()
    try await folder.seed([.mock, .engineeringMock])
    let database = folder.database()
    _ = try await database.load()
    try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: UUID())
    try await database.share([Standup.mock.id, Standup.engineeringMock.id])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
    // NB: Bob adds a standup and deletes it, then deletes one alice shared and has not pushed:
    // a deletion told (`teamDeletedBy`) and a deletion asked about (`teamDeletionQuestion`).
    _ = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 1, machine: other, machineSequence: 1, madeBy: "bob",
          change: try encode(.added([.productMock]))),
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 2, madeBy: "bob", basedOn: 1,
          change: try encode(.deleted(Standup.productMock.id))),
        PulledTeamChange(
          sequence: 3, machine: other, machineSequence: 3, madeBy: "bob", basedOn: 2,
          change: try encode(.deleted(Standup.engineeringMock.id))),
      ], through: 3, as: "alice")
    let tables = try await DatabaseQueue(path: folder.databasePath).read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT name FROM sqlite_master
          WHERE type = 'table' AND (name LIKE 'team%' OR name = 'sharedStandup')
          """)
    }
    let filled = try await DatabaseQueue(path: folder.databasePath).read { db in
      try tables.filter { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! > 0 }
    }
    #expect(filled.count >= 5, "a team's life fills its tables: \(filled) of \(tables)")

    #expect(try await database.leaveTeam() == 2)
    let left = try await DatabaseQueue(path: folder.databasePath).read { db in
      try tables.filter { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! > 0 }
    }
    #expect(left.isEmpty, "\(left) keep rows of the team's")
  }

  /// A restore whose round ended before it sent again what the server lost, then a second
  /// restore that finds nothing lost of its own: the first resend is still owed, and made.
  @Test func startingAgainKeepsAResendStillOwed() async throws {
    let (database, _) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let team = try #require(try await database.teamMembership()).id

    try await database.startTeamAgain(team, after: 0, resending: [Standup.mock.id])
    try await database.startTeamAgain(team, after: 0, resending: [])
    #expect(try await database.teamMembership()?.resharePending == true)
    try await database.teamChangesPushed(through: .max)
    #expect(try await database.resendTeamStandups(in: team) == 1)
    #expect(try await database.teamMembership()?.resharePending == false)
    #expect(try await database.waitingTeamChangeCount() == 2)
  }
}
