import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A standup another member deleted while this machine changed it: whatever the user answers,
/// once every machine has pulled, each holds the server's order applied.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct DeletionQuestionTests {
  /// Bob records a meeting of a standup alice deleted, without having heard of the deletion:
  /// his meeting, ordered after it, brings the standup back on alice's machine. Letting it go
  /// then deletes it for the team; before, it went on bob's machine alone, which differed from
  /// every other machine's for good.
  @Test func lettingGoAStandupTheOrderBroughtBackDeletesItForTheTeam() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let id = Standup.mock.id

      try await alice.database.apply(.deleted(id))
      try await alice.sync()
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_800_000_000),
        transcript: "Recorded offline")
      try await bob.database.apply(.meetingRecorded(meeting, standup: .mock))
      #expect(try await bob.sync().report.deletedWhileChangedHere == [id])
      try await alice.sync()
      #expect(try await alice.standups().map(\.id) == [id], "the meeting brought it back")

      try await bob.database.answerTeamDeletion(of: id, keep: false)
      try await bob.sync()
      try await alice.sync()
      #expect(try await bob.standups().isEmpty)
      #expect(try await alice.standups().isEmpty)
      let carol = try await Machine.platform(server, as: "carol")
      try await carol.sync()
      #expect(try await carol.standups().isEmpty, "the order's end, for a machine joining now")
    }
  }

  /// The same question, answered "Keep it" by one member and "Let it go" by another who changed
  /// it too: the one who let go lets go of the deletion it was asked about, and keeps what the
  /// team kept.
  @Test func oneKeepsAndAnotherLetsGoAndEveryMachineEndsTheSame() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let carol = try await Machine.platform(server, as: "carol")
      try await carol.sync()
      let id = Standup.mock.id

      try await bob.database.apply(.edited(id, StandupEdit(title: "Bob's")))
      try await carol.database.apply(.edited(id, StandupEdit(duration: .seconds(600))))
      try await alice.database.apply(.deleted(id))
      try await alice.sync()
      #expect(try await bob.sync().report.deletedWhileChangedHere == [id])
      #expect(try await carol.sync().report.deletedWhileChangedHere == [id])

      try await carol.database.answerTeamDeletion(of: id, keep: true)
      try await carol.sync()
      try await bob.sync()
      try await bob.database.answerTeamDeletion(of: id, keep: false)
      for machine in [bob, carol, alice, bob, carol] { try await machine.sync() }
      let ends = try await [alice.standups(), bob.standups(), carol.standups()]
      #expect(ends[0] == ends[1] && ends[1] == ends[2], "\(ends.map { $0.map(\.title) })")
    }
  }
}
