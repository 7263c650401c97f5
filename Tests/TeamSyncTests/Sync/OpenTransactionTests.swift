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
        // NB: As psql's: the server never ends mallory's transaction for being idle, however
        // long the rounds below take.
        let idleLimit = try await mallory.query(
          "SHOW idle_in_transaction_session_timeout", logger: TestServer.logger)
        #expect(try await idleLimit.collect().map { try $0.decode(String.self) } == ["0"])
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
        #expect(pulled.gap == nil, "the team passed mallory's number")
        #expect(try await alice.standups().first?.title == "Bob's")

        let refusal = await #expect(throws: PSQLError.self, "a number the team passed") {
          try await mallory.query("COMMIT", logger: TestServer.logger)
        }
        #expect(refusal?.serverInfo?[.sqlState] == "40001", "a serialization failure")
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

      // NB: Each row sleeps before it is numbered, but the first: mallory holds a number at
      // once, and goes on taking them, one each half second, for 15 s.
      let insertSlowly = Task {
        try await server.asMember("mallory") { mallory in
          try await mallory.query(
            "SET default_transaction_isolation = 'serializable'", logger: TestServer.logger)
          try await mallory.query(
            """
            INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
            SELECT 'platform', \(UUID()), n, 0,
              jsonb_build_object('n', n, 'slept', pg_sleep(least(n - 1, 1) * 0.5)::text)
            FROM generate_series(1, 30) AS n
            """, logger: TestServer.logger)
        }
      }
      try await server.waitUntilANumberIsTaken(on: "platform", after: 1)
      for title in ["One", "Two", "Three"] {
        try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
        #expect(try await bob.sync().pushed == 1)
      }
      try await alice.sync()
      #expect(try await alice.standups().first?.title == "Three")
      let refusal = await #expect(throws: PSQLError.self, "the team passed mallory's number") {
        try await insertSlowly.value
      }
      #expect(refusal?.serverInfo?[.sqlState] == "40001", "a serialization failure")
      #expect(
        try await server.administer(
          "SELECT count(*) FROM standups_team.changes WHERE made_by = '\(server.role("mallory"))'"
        ) == "0\n")
      #expect(try await bob.sync().pulled == 0)
      #expect(try await alice.standups() == bob.standups())
    }
  }
}

extension TestServer {
  /// Runs `body` on a connection of member `name`'s own, as psql or a program of theirs would
  /// make it, password "`name`-secret": without the app's session settings, so the server
  /// leaves an idle transaction of theirs open and a statement running for as long as they
  /// like.
  func asMember(
    _ name: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> Void
  ) async throws {
    let description = try ConnectionDescription(url: url(for: name), environment: [:])
    let connection = try await PostgresConnection.connect(
      configuration: description.connectionConfiguration(password: "\(name)-secret"), id: 1,
      logger: TestServer.logger)
    do {
      try await body(connection)
      try await connection.close()
    } catch {
      try? await connection.close()
      throw error
    }
  }

  /// Returns once `team` has given out a number above `last`: the team's own sequence, read as
  /// the administrator, since nobody else may read it; throws after a minute without one.
  func waitUntilANumberIsTaken(on team: String, after last: Int) async throws {
    try await waitUntil(
      """
      SELECT pg_sequence_last_value(numbers) > \(last) FROM standups_team.teams
      WHERE name = '\(team)'
      """, answers: "t\n", else: "no number of \(team)'s was taken after \(last)")
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
