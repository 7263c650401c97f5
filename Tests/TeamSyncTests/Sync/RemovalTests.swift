import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A member the schema's owner takes out of the team (`standups team remove`): their machines
/// are told, leave the team, and keep its standups as their own.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct RemovalTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret"]

  @Test func aMemberRemovedWhileTheirAppIsOpenIsToldAndKeepsTheStandups() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      let bob = try await Machine.platform(server, as: "bob")
      let bobsOtherMachine = try await Machine.platform(server, as: "bob")
      try await alice.shareTheMock()
      try await bobsOtherMachine.sync()

      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await bob.engine()
      let running = Task {
        await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in })
        status.finish()
      }
      var told = statuses.makeAsyncIterator()
      while let next = await told.next(), !(next == .online(waiting: 0)) {}
      #expect(try await bob.standups().elements == [.mock])

      try await server.withAdministrator { connection in
        try await TeamSchema.removeMembers(
          team: "platform", roles: [server.role("bob")], on: connection,
          logger: TestServer.logger)
      }
      let removed = SyncProblem.removed(role: server.role("bob"), team: "platform", unsent: 0)
      var last: TeamSyncStatus?
      while let next = await told.next() { last = next }
      await running.value
      #expect(last == .stopped(waiting: 0, problem: removed))
      #expect(
        last?.line == "team: you are no longer in “platform” — its standups stay here as yours")

      // NB: The standups stay, as personal ones: an edit stays here, and the team's never come.
      #expect(try await bob.database.teamMembership() == nil)
      #expect(try await bob.database.sharedStandupIDs().isEmpty)
      #expect(try await bob.standups().elements == [.mock])
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's own")))
      #expect(try await bob.database.waitingTeamChangeCount() == 0)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
      try await alice.sync()
      #expect(try await bob.standups().first?.title == "Bob's own")

      // NB: A machine of the role's that was closed learns it at its next round.
      await #expect(throws: removed) { try await bobsOtherMachine.sync() }
      #expect(try await bobsOtherMachine.database.teamMembership() == nil)

      #expect(
        try await server.administer(
          "SELECT count(*) FROM standups_team.changes WHERE made_by = '\(server.role("bob"))'")
          == "0\n")
    }
  }

  /// A member removed while changes of theirs wait is told how many stay here only: they can no
  /// longer reach the team, and the machine keeps them in its own standups.
  @Test func aMemberRemovedWithChangesWaitingIsToldTheyStayHere() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .lavender)))
      try await server.withAdministrator { connection in
        try await TeamSchema.removeMembers(
          team: "platform", roles: [server.role("bob")], on: connection,
          logger: TestServer.logger)
      }

      let removed = SyncProblem.removed(role: server.role("bob"), team: "platform", unsent: 2)
      await #expect(throws: removed) { try await bob.sync() }
      #expect(
        removed.description.hasSuffix("with 2 changes made here that had not reached the team."))
      #expect(
        TeamSyncStatus.stopped(waiting: 0, problem: removed).line
          == "team: you are no longer in “platform” — its standups stay here as yours, with 2 "
          + "changes that had not reached it")
      let kept = try #require(try await bob.standups()[id: Standup.mock.id])
      #expect(kept.title == "Bob's")
      #expect(kept.theme == .lavender)
      try await alice.sync()
      #expect(try await alice.standups()[id: Standup.mock.id]?.title == Standup.mock.title)
    }
  }
}
