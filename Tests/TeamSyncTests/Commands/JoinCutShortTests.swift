import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A `standups team join` whose sync the server ends: the machine is in no team again, and its
/// own standups are as they were, so the next join finds what the first one would have.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct JoinCutShortTests {
  @Test func aJoinCutShortPutsBackWhatItKeptApart() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let alice = try Home(password: "alice-secret", in: server.folder)
      let platform = server.url(for: "alice")
      for command in [
        ["import", try alice.write(standups: [.mock, .engineeringMock])],
        ["team", "join", platform, "platform"], ["share", Standup.mock.title], ["team", "leave"],
      ] {
        let done = try await standups(command, alice.environment)
        #expect(done.status == 0, "\(command): \(done.error)")
      }
      var edited = Standup.mock
      edited.title = "Edited while away"
      #expect(
        try await standups(["import", try alice.write(standups: [edited])], alice.environment)
          .status == 0)
      let before = try await StandupsDatabase(path: alice.database).readStandups()

      // NB: The administrator holds the table where machines report how far they pulled: the
      // join waits there, its pull applied and alice's standup kept apart, when the server stops.
      try await server.withAdministratorWhileStopping { connection in
        try await connection.query("BEGIN", logger: TestServer.logger)
        try await connection.query(
          "LOCK TABLE standups_team.machines IN SHARE MODE", logger: TestServer.logger)
        let join = try start(
          ["team", "join", platform, "platform"], alice.environment, errorFile: alice.errorFile)
        try await server.waitUntil(
          """
          SELECT count(*) FROM pg_stat_activity
          WHERE usename = '\(server.role("alice"))' AND wait_event_type = 'Lock'
            AND query LIKE 'INSERT INTO standups_team.machines%'
          """, answers: "1\n", gaveUp: { !join.isRunning },
          else: "the join never reported how far it pulled")
        #expect(
          try await titles(at: alice.database) == [
            "Design", "Edited while away (kept here)", "Engineering",
          ])
        try await server.stopImmediately()
        try #require(await endsWithin(seconds: 60, join), "team join hung when the server stopped")
        #expect(join.terminationStatus == 69)
      }
      let after = StandupsDatabase(path: alice.database)
      #expect(try await after.readStandups() == before)
      #expect(try await after.teamMemberships().isEmpty)

      try await server.startAgain()
      let again = try await standups(["team", "join", platform, "platform"], alice.environment)
      #expect(again.status == 0, "\(again.error)")
      #expect(
        try await titles(at: alice.database) == [
          "Design", "Edited while away (kept here)", "Engineering",
        ])
    }
  }

  private func titles(at path: String) async throws -> [String] {
    try await StandupsDatabase(path: path).readStandups().map(\.title).sorted()
  }
}
