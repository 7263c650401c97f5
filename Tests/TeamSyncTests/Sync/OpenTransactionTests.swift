import Foundation
import Models
import PostgresNIO
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A member who holds a transaction open on the team's server, through psql or a program of
/// their own: nobody else's push waits for it, the team's order goes past the number it holds
/// once a second has passed, and its commit then fails, so that no machine ever misses a change
/// below the place it has pulled to.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct OpenTransactionTests {
  @Test func aMembersOpenTransactionHoldsNeitherAnothersPushNorTheTeamsOrder() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)

      try await server.asMember("mallory") { mallory in
        try await mallory.query("BEGIN ISOLATION LEVEL SERIALIZABLE", logger: TestServer.logger)
        try await mallory.query(
          """
          INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
          VALUES ('platform', \(UUID()), 1, 0, \(try encoded(.deleted(Standup.mock.id)))::jsonb)
          """, logger: TestServer.logger)

        // NB: Before, bob's push waited on the team's row until the statement timed out.
        try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
        #expect(try await bob.sync().pushed == 1)
        let pulled = try await alice.sync()
        #expect(pulled.waitingAt == nil, "the team passed mallory's number")
        #expect(try await alice.standups().first?.title == "Bob's")

        await #expect(throws: PSQLError.self, "a number the team passed never commits") {
          try await mallory.query("COMMIT", logger: TestServer.logger)
        }
      }
      #expect(
        try await server.administer(
          "SELECT count(*) FROM standups_team.changes WHERE made_by = '\(server.role("mallory"))'"
        ) == "0\n")
      #expect(try await bob.sync().pulled == 0)
      #expect(try await alice.standups() == bob.standups())
    }
  }

  @Test func aMembersLongStatementHoldsNoOnesPush() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)

      let insertSlowly = Task {
        try await server.asMember("mallory") { mallory in
          try await mallory.query(
            "SET default_transaction_isolation = 'serializable'", logger: TestServer.logger)
          try await mallory.query(
            """
            INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
            SELECT 'platform', \(UUID()), n, 0,
              jsonb_build_object('n', n, 'slept', pg_sleep(0.5)::text)
            FROM generate_series(1, 30) AS n
            """, logger: TestServer.logger)
        }
      }
      try await server.waitUntilAStatementRuns(as: "mallory")
      // NB: Before, each of bob's pushes waited for mallory's statement (15 s) on the team's
      // row, and a round timed out.
      for title in ["One", "Two", "Three"] {
        try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
        #expect(try await bob.sync().pushed == 1)
      }
      try await alice.sync()
      #expect(try await alice.standups().first?.title == "Three")
      await #expect(throws: (any Error).self, "the team went past mallory's numbers") {
        try await insertSlowly.value
      }
      #expect(try await bob.sync().pulled == 0)
      #expect(try await alice.standups() == bob.standups())
    }
  }
}

extension TestServer {
  /// Runs `body` on a connection of member `name`'s own, as psql or a program of theirs would
  /// make it, password "`name`-secret".
  func asMember(
    _ name: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> Void
  ) async throws {
    let description = try ConnectionDescription(url: url(for: name), environment: [:])
    try await description.withConnection(password: "\(name)-secret", logger: TestServer.logger) {
      try await body($0)
    }
  }

  /// Returns once an insert of member `name`'s is running; throws after a minute without one.
  func waitUntilAStatementRuns(as name: String) async throws {
    try await waitUntil(
      """
      SELECT count(*) FROM pg_stat_activity
      WHERE usename = '\(role(name))' AND state = 'active' AND query LIKE 'INSERT%'
      """, answers: "1\n", else: "no statement of \(name)'s started")
  }

  /// Returns once member `name` has no session left; throws after a minute. A client that
  /// closes its connection leaves its session until the server's process for it exits, a moment
  /// later, and until then the session counts against the role's connection limit.
  func waitUntilNoSessionIsLeft(of name: String) async throws {
    try await waitUntil(
      "SELECT count(*) FROM pg_stat_activity WHERE usename = '\(role(name))'", answers: "0\n",
      else: "a session of \(name)'s stayed")
  }
}
