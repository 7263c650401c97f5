import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// The team's outbox and the changes pulled from the server, on a database in memory: no server,
/// the server's side played by hand-made `PulledTeamChange`s.
struct TeamLedgerTests {
  let other = UUID(uuidString: "00000000-0000-0000-0000-0000000000B0")!

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

  @Test func aPulledDeletionOfAStandupWithAWaitingChangeKeepsItAndAsks() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.teamChangesPushed(through: shared.machineSequence)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))
    // NB: The server's order: this machine's share, then another's deletion, made after it
    // pulled the share but before this machine's edit reached it.
    let report = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 4, machine: machine, machineSequence: shared.machineSequence, madeBy: "alice",
          change: shared.change),
        PulledTeamChange(
          sequence: 5, machine: other, machineSequence: 1, madeBy: "bob",
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 5, as: "alice")
    #expect(report.deletedWhileChangedHere == [Standup.mock.id])
    #expect(try await database.readStandups().map(\.title) == ["Waiting here"])
    #expect(try await database.teamDeletionQuestions().map(\.deletedBy) == ["bob"])
  }

  @Test func aStandupHeldForADeletionsQuestionComesBackAsTheChangeThatBringsItBackCarriesIt()
    async throws
  {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1), transcript: "Recorded here")
    try await database.apply(.meetingRecorded(meeting, standup: .mock))
    let waiting = try await database.waitingTeamChanges(limit: 10)
    try await database.teamChangesPushed(through: waiting[1].machineSequence)
    let blob = try #require(Standup.mock.attendees.first)
    var withoutBlob = Standup.mock
    withoutBlob.attendees.remove(id: blob.id)
    // NB: The server's order: the share; bob removes an attendee and deletes the standup, having
    // seen the share only; then this machine's meeting, which brings the standup back, as this
    // machine had it when the meeting was recorded: with the attendee.
    _ = try await database.applyPulledTeamChanges(
      [
        shareBack(shared, from: machine),
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 1,
          change: try encode(
            .edited(Standup.mock.id, StandupEdit(from: .mock, to: withoutBlob)))),
        PulledTeamChange(
          sequence: 3, machine: other, machineSequence: 2, madeBy: "bob", basedOn: 2,
          change: try encode(.deleted(Standup.mock.id))),
        PulledTeamChange(
          sequence: 4, machine: machine, machineSequence: waiting[1].machineSequence,
          madeBy: "alice", basedOn: 1, change: waiting[1].change),
      ], through: 4, as: "alice")

    var order: IdentifiedArrayOf<Standup> = []
    for change in try [
      shared.change, encode(.edited(Standup.mock.id, StandupEdit(from: .mock, to: withoutBlob))),
      encode(.deleted(Standup.mock.id)), waiting[1].change,
    ] {
      try decode(change).apply(to: &order)
    }
    // NB: The case needs the order to hold what this machine's copy lost: the attendee.
    try #require(order[id: Standup.mock.id]?.attendees[id: blob.id] != nil)
    #expect(
      try await database.readStandups()[id: Standup.mock.id] == order[id: Standup.mock.id],
      "the server's order applied: the meeting brought back the standup it carries")
  }

  @Test func aStandupKeptForTheTeamComesBackAsAChangeOrderedBeforeTheKeepCarriesIt()
    async throws
  {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))
    _ = try await database.applyPulledTeamChanges(
      [
        shareBack(shared, from: machine),
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 1,
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 2, as: "alice")
    try await database.answerTeamDeletion(of: Standup.mock.id, keep: true)
    #expect(try await database.teamDeletionQuestions().isEmpty, "answered, so no longer asked")

    // NB: Carol recorded a meeting before she heard of the deletion, with an attendee she had
    // added; the server orders it after the deletion and before this machine's keep.
    var carols = Standup.mock
    carols.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Dana"))
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1), transcript: "Carol's")
    let carolsMeeting = try encode(.meetingRecorded(meeting, standup: carols))
    _ = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 3, machine: UUID(), machineSequence: 1, madeBy: "carol", basedOn: 1,
          change: carolsMeeting)
      ], through: 3, as: "alice")

    var order: IdentifiedArrayOf<Standup> = []
    let waiting = try await database.waitingTeamChanges(limit: 10).map(\.change)
    for change in try [shared.change, encode(.deleted(Standup.mock.id)), carolsMeeting] + waiting {
      try decode(change).apply(to: &order)
    }
    try #require(order[id: Standup.mock.id]?.attendees.contains { $0.name == "Dana" } == true)
    #expect(
      try await database.readStandups()[id: Standup.mock.id] == order[id: Standup.mock.id],
      "the server's order applied, this machine's keep last")
  }

  @Test func aStandupKeptForTheTeamIsTheTeamsAgainOnceTheKeepIsInTheOrder() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))
    _ = try await database.applyPulledTeamChanges(
      [
        shareBack(shared, from: machine),
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 1,
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 2, as: "alice")
    try await database.answerTeamDeletion(of: Standup.mock.id, keep: true)
    let keep = try await database.waitingTeamChanges(limit: 10)
    try await database.teamChangesPushed(through: .max)

    // NB: The keep comes back; then Carol's meeting, recorded on the standup as she had it
    // before, is a meeting of a standup every machine holds: it adds a meeting, nothing else.
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1), transcript: "Carol's")
    _ = try await database.applyPulledTeamChanges(
      keep.enumerated().map { offset, change in
        PulledTeamChange(
          sequence: 3 + Int64(offset), machine: machine, machineSequence: change.machineSequence,
          madeBy: "alice", basedOn: 2, change: change.change)
      } + [
        PulledTeamChange(
          sequence: 3 + Int64(keep.count), machine: UUID(), machineSequence: 1, madeBy: "carol",
          basedOn: 3 + Int64(keep.count) - 1,
          change: try encode(.meetingRecorded(meeting, standup: .mock)))
      ], through: 3 + Int64(keep.count), as: "alice")

    let stored = try #require(try await database.readStandups()[id: Standup.mock.id])
    #expect(stored.title == "Waiting here")
    #expect(stored.meetings.contains { $0.id == meeting.id })
    #expect(try await database.waitingTeamChangeCount() == 0)
  }

  @Test func aValueOfThisMachinesTheBringBackReplacesIsTold() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let blob = try #require(Standup.mock.attendees.first)
    var alices = Standup.mock
    alices.title = "Alice's title"
    alices.attendees.remove(id: blob.id)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: alices)))
    let waiting = try await database.waitingTeamChanges(limit: 10)
    try await database.teamChangesPushed(through: waiting[1].machineSequence)
    let meeting = Meeting(
      id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1), transcript: "Carol's")
    // NB: Bob deletes and Carol records a meeting, neither having seen Alice's title: the
    // meeting brings the standup back as Carol had it.
    _ = try await database.applyPulledTeamChanges(
      [
        shareBack(waiting[0], from: machine),
        PulledTeamChange(
          sequence: 2, machine: machine, machineSequence: waiting[1].machineSequence,
          madeBy: "alice", basedOn: 1, change: waiting[1].change),
        PulledTeamChange(
          sequence: 3, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 1,
          change: try encode(.deleted(Standup.mock.id))),
        PulledTeamChange(
          sequence: 4, machine: UUID(), machineSequence: 1, madeBy: "carol", basedOn: 1,
          change: try encode(.meetingRecorded(meeting, standup: .mock))),
      ], through: 4, as: "alice")

    let stored = try #require(try await database.readStandups()[id: Standup.mock.id])
    #expect(stored.title == Standup.mock.title)
    #expect(stored.attendees == Standup.mock.attendees, "as Carol's meeting carries it")
    let told = try await database.valuesReplacedByTheTeam()
    #expect(told.count == 2)
    #expect(told.contains { $0.value == .title("Alice's title") })
    #expect(told.contains { $0.value == .attendeeRemoved(blob) }, "Blob, removed here, is back")
    #expect(told.map(\.member) == ["carol", "carol"])
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

  @Test func lettingGoAStandupACompactedStateHoldsDeletesItForTheTeam() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.teamChangesPushed(through: shared.machineSequence)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))
    _ = try await database.applyPulledTeamChanges(
      [
        shareBack(shared, from: machine),
        PulledTeamChange(
          sequence: 2, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 1,
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 2, as: "alice")
    #expect(try await database.teamDeletionQuestions().count == 1)

    // NB: A meeting of carol's brought it back, and the owner folded that into the state.
    _ = try await database.startFromCompactedTeamState(
      CompactedTeamState(through: 3, standups: [.mock], machinesSeen: [:]), as: "alice")
    try await database.answerTeamDeletion(of: Standup.mock.id, keep: false)

    let waiting = try await database.waitingTeamChanges(limit: 10).map { try decode($0.change) }
    #expect(
      waiting.last == .deleted(Standup.mock.id),
      "the team's order holds it, so letting it go deletes it for the team: \(waiting)")
    #expect(try await database.readStandups().isEmpty)
  }

  @Test func aDeletionMadeAfterSeeingThisMachinesChangeInTheSamePullIsNoQuestion() async throws {
    let (database, machine) = try await joined(holding: [.mock])
    try await database.share([Standup.mock.id])
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Seen by bob")))
    let waiting = try await database.waitingTeamChanges(limit: 10)
    try await database.teamChangesPushed(through: waiting[1].machineSequence)
    // NB: Both of this machine's changes come back first; bob deleted after pulling them.
    let report = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 1, machine: machine, machineSequence: waiting[0].machineSequence,
          madeBy: "alice",
          change: waiting[0].change),
        PulledTeamChange(
          sequence: 2, machine: machine, machineSequence: waiting[1].machineSequence,
          madeBy: "alice",
          basedOn: 1, change: waiting[1].change),
        PulledTeamChange(
          sequence: 3, machine: other, machineSequence: 1, madeBy: "bob", basedOn: 2,
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 3, as: "alice")
    #expect(report.deletedWhileChangedHere.isEmpty)
    #expect(try await database.readStandups().isEmpty)
    #expect(try await database.teamDeletionQuestions().isEmpty)
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
    try await database.rewindTeam(to: 0, resending: [Standup.mock.id])
    #expect(try await database.teamMembership()?.lastSequence == 0)
    // NB: The theme was pushed; the server lost it too, so it is pushed again.
    let pushed = try #require(try await database.newestPushedTeamChange())
    #expect(try await database.waitingTeamChangeCount() == 0)
    try await database.teamChangesNotPushed(after: pushed - 1)
    #expect(try await database.waitingTeamChangeCount() == 1)
    #expect(try await database.newestPushedTeamChange() == nil)
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
      try await database.lastTeamChanges()[Standup.mock.id]
        == TeamChangeOrigin(
          memberMachine: MemberMachine(madeBy: "carol", machine: carol), machineSequence: 1))
    #expect(try await database.resendTeamStandups() == 1)
    let waiting = try await database.waitingTeamChanges(limit: 10).map { try decode($0.change) }
    #expect(
      waiting.suffix(2) == [.added([stored]), .edited(stored.id, StandupEdit(restating: stored))])
    #expect(try await database.resendTeamStandups() == 0)
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

  private func joined(holding standups: IdentifiedArrayOf<Standup>) async throws
    -> (StandupsDatabase, UUID)
  {
    let database = StandupsDatabase(inMemoryHolding: standups)
    _ = try await database.load()
    let machine = UUID()
    try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: machine)
    return (database, machine)
  }

  /// This machine's share, back from the server as change 1 of the team's order.
  private func shareBack(_ shared: WaitingTeamChange, from machine: UUID) -> PulledTeamChange {
    PulledTeamChange(
      sequence: 1, machine: machine, machineSequence: shared.machineSequence, madeBy: "alice",
      change: shared.change)
  }

  private func encode(_ change: StandupsChange) throws -> String {
    String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
  }

  private func decode(_ text: String) throws -> StandupsChange {
    try JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8))
  }
}
