import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A machine that leaves its team and joins it again: once it has pulled, it holds the team's
/// standups as every other machine does, and what it changed while away stays with it, told.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct LeaveAndJoinTests {
  @Test func backInTheTeamItHoldsTheTeamsStandupAndKeepsItsOwnEditsApart() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let membership = try #require(try await alice.database.teamMembership())

      try await alice.database.leaveTeam()
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.sync()

      try await alice.joinAgain(membership)
      let round = try await alice.sync()
      #expect(round.report.keptApart.map(\.copy.title) == ["Alice's (kept here)"])
      let standups = try await alice.standups()
      #expect(standups.map(\.title).sorted() == ["Alice's (kept here)", "Bob's"])
      #expect(try await alice.database.sharedStandupIDs() == [Standup.mock.id])
      #expect(standups[id: Standup.mock.id] == (try await bob.standups()).first)

      // NB: The copy is alice's alone: nothing of it goes to the team.
      #expect(try await alice.sync().pushed == 0)
      try await bob.sync()
      #expect(try await bob.standups().map(\.title) == ["Bob's"])
    }
  }

  /// Back in the team with nothing changed meanwhile, however many edits the team's standup had
  /// after it was shared (none, one, or more than a pull's window of a thousand changes holds):
  /// the machine's copy is the standup as the team's last changes made it, not as it was first
  /// added, so none is kept apart and nothing is said of one.
  @Test(arguments: [0, 1, 1_001])
  func backInTheTeamWithNothingChangedMeanwhileKeepsNoCopy(editsPulledBeforeLeaving: Int)
    async throws
  {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      for number in 0..<editsPulledBeforeLeaving {
        try await bob.database.apply(
          .edited(Standup.mock.id, StandupEdit(title: "Bob's \(number)")))
      }
      try await bob.sync()
      try await alice.sync()
      let membership = try #require(try await alice.database.teamMembership())

      try await alice.database.leaveTeam()
      try await alice.joinAgain(membership)
      #expect(try await alice.sync().report.keptApart.isEmpty)
      #expect(try await alice.standups() == bob.standups())
    }
  }

  /// The same, when the owner pruned the history meanwhile: back in the team, the machine starts
  /// from the compacted state, which must keep apart what it changed while away as a replay does.
  @Test func backInAPrunedTeamItKeepsItsOwnMeetingApart() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let membership = try #require(try await alice.database.teamMembership())

      try await alice.database.leaveTeam()
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1), transcript: "Away")
      try await alice.database.apply(.meetingRecorded(meeting, standup: .mock))
      _ = try await prune(server)

      try await alice.joinAgain(membership)
      let round = try await alice.sync()
      #expect(round.report.startedFromCompactedState != nil)
      #expect(
        round.report.keptApart.map(\.copy.title) == ["\(Standup.mock.displayTitle) (kept here)"])
      let kept = try #require(try await alice.standups().first { $0.id != Standup.mock.id })
      #expect(
        Set(kept.meetings.map(\.transcript))
          == Set(["Away"] + Standup.mock.meetings.map(\.transcript)))
      #expect(try await alice.standups()[id: Standup.mock.id] == (try await bob.standups()).first)
      #expect(try await alice.sync().pushed == 0)
    }
  }

  /// `team leave` in a shell while the app runs, or `team join` of the same team: the team's
  /// engine ends at its next round, without a word, rather than pull again and again for a place
  /// the machine no longer keeps, or as a machine it no longer is.
  @Test(arguments: [false, true])
  func aTeamLeftOrJoinedAgainWhileItsEngineRunsEndsTheEngineQuietly(joiningAgain: Bool)
    async throws
  {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await alice.engine()
      let running = Task {
        await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in })
        status.finish()
      }
      var told = statuses.makeAsyncIterator()
      while let next = await told.next(), next != .online(waiting: 0) {}

      let membership = try #require(try await alice.membership())
      if joiningAgain {
        // NB: `team join` of the team it is in: the same membership, as another machine.
        try await alice.joinAgain(membership)
      } else {
        _ = try await alice.database.leaveTeam(membership.id)
      }
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.sync()
      await running.value
      var after: [TeamSyncStatus] = []
      while let next = await told.next() { after.append(next) }
      #expect(after.allSatisfy { $0 == .online(waiting: 0) }, "\(after)")
      #expect(try await alice.standups()[id: Standup.mock.id]?.title != "Bob's")
    }
  }
}

extension Machine {
  /// `standups team join` of the team `membership` names, as a new machine.
  fileprivate func joinAgain(_ membership: TeamMembership) async throws {
    try await database.joinTeam(
      server: membership.server, team: membership.team, machine: UUID())
  }
}
