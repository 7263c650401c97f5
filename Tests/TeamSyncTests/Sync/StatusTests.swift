import Foundation
import Models
import PostgresNIO
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// What the engine says about the team's server is true within seconds, in words: a server that
/// stopped answering is told as one, a server with no connection free for the role as one, and
/// each comes back to "in sync" once the server does.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct StatusTests {
  @Test func aServerThatStopsAnsweringIsToldAsOneAndSyncingGoesOnOnceItAnswers() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)

      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await alice.engine()
      let running = Task { await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in }) }
      defer { running.cancel() }
      var told = statuses.makeAsyncIterator()
      while let next = await told.next(), next != .online(waiting: 0) {}

      // NB: Stopped, the server's processes answer nothing, and its host acknowledges every
      // packet: keepalives never fire. Before, the app said nothing for minutes.
      try server.signalProcesses(SIGSTOP)
      do {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
        var last: TeamSyncStatus?
        while let next = await told.next() {
          last = next
          if case .offline(_, .noAnswer) = next { break }
        }
        #expect(last?.line == "offline, the server does not answer — 1 change waiting")
      }
      try server.signalProcesses(SIGCONT)

      while let next = await told.next(), next != .online(waiting: 0) {}
      try await bob.sync()
      #expect(try await bob.standups().first?.title == "Alice's")
    }
  }

  @Test func aCommandAgainstAServerThatStopsAnsweringEndsWithASentence() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))

      try server.signalProcesses(SIGSTOP)
      defer { try? server.signalProcesses(SIGCONT) }
      let problem = await #expect(throws: SyncProblem.self) { try await alice.sync() }
      guard case .noAnswer? = problem else {
        Issue.record("\(String(describing: problem))")
        return
      }
      #expect(problem?.exitCode == 69)
      #expect(problem?.description.contains("does not answer") == true)
      #expect(try await alice.database.waitingTeamChangeCount() == 1, "nothing lost")
    }
  }

  @Test func aRoleWithNoConnectionFreeIsToldSoAndNotThatTheServerIsAway() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try server.administer("ALTER ROLE \(server.role("alice")) CONNECTION LIMIT 1")

      try await server.asMember("alice") { _ in
        let problem = await #expect(throws: SyncProblem.self) { try await alice.sync() }
        guard case .noFreeConnection(_, let reason)? = problem else {
          Issue.record("\(String(describing: problem))")
          return
        }
        #expect(reason.contains("too many connections"), "\(reason)")
        #expect(problem?.exitCode == 75)
        #expect(
          TeamSyncStatus.offline(waiting: 0, problem: problem!).line
            == "offline, the server has no free connection — 0 changes waiting")
      }
      try await alice.sync()
    }
  }
}
