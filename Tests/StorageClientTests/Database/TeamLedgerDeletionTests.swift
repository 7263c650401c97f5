import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// Another member's deletion, on a database in memory: the question it asks when it meets a change
/// here, the answers, and the changes that bring a deleted standup back.
struct TeamLedgerDeletionTests: LedgerTesting {
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
    let (database, _, shared) = try await askingAboutBobsDeletion()
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

  /// Two instances of the app show the same question; the second answer, whichever it is,
  /// changes nothing and says so.
  @Test(arguments: [true, false])
  func aQuestionAnsweredInAnotherInstanceTakesNoSecondAnswer(firstKeeps: Bool) async throws {
    let (database, _, _) = try await askingAboutBobsDeletion()
    #expect(try await database.answerTeamDeletion(of: Standup.mock.id, keep: firstKeeps))
    let standups = try await database.readStandups()
    let waiting = try await database.waitingTeamChanges(limit: 10)

    #expect(!(try await database.answerTeamDeletion(of: Standup.mock.id, keep: !firstKeeps)))
    #expect(try await database.readStandups() == standups)
    #expect(try await database.waitingTeamChanges(limit: 10) == waiting)
    #expect(try await database.teamDeletionQuestions().isEmpty)
  }

  @Test func aStandupKeptForTheTeamIsTheTeamsAgainOnceTheKeepIsInTheOrder() async throws {
    let (database, machine, _) = try await askingAboutBobsDeletion()
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

  @Test func lettingGoAStandupACompactedStateHoldsDeletesItForTheTeam() async throws {
    let (database, _, _) = try await askingAboutBobsDeletion()

    // NB: A meeting of carol's brought it back, and the owner folded that into the state.
    _ = try await database.startFromCompactedTeamState(
      CompactedTeamState(through: 3, standups: [.mock], machinesSeen: [:]),
      in: try #require(try await database.teamMembership()).id, as: "alice")
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

  /// A database in a team whose shared mock, edited here ("Waiting here"), bob deleted without
  /// having seen the edit: the user is asked.
  private func askingAboutBobsDeletion() async throws
    -> (StandupsDatabase, machine: UUID, share: WaitingTeamChange)
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
    try #require(try await database.teamDeletionQuestions().count == 1)
    return (database, machine, shared)
  }
}
