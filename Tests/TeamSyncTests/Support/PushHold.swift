import Foundation
import PostgresNIO
import PostgresTestServer

extension TestServer {
  /// Runs `body` with a machine's pushes held in their middle: a push of `machine`'s changes to
  /// `team`, made as `member`, inserts the changes before change `number`, without committing,
  /// and waits at `number` until `body` ends. `body` starts the push and waits for it to arrive
  /// (``PushHold/waitUntilAPushWaits(as:)``), then stops the server or kills the machine.
  ///
  /// What holds the push is an administrator's uncommitted row with the same role, machine and
  /// number, which the push's insert must wait for on the unique index. The row is written with
  /// the triggers off (`session_replication_role = replica`), so that it takes no number of the
  /// team's. It is rolled back after `body`, unless `body` stopped the server.
  func holdingPushes(
    of machine: UUID, as member: String, in team: String, atChange number: Int64,
    _ body: (PushHold) async throws -> Void
  ) async throws {
    try await withAdministratorWhileStopping { connection in
      let logger = TestServer.logger
      try await connection.query("BEGIN", logger: logger)
      try await connection.query("SET LOCAL session_replication_role = replica", logger: logger)
      try await connection.query(
        """
        INSERT INTO standups_team.changes
          (team, sequence, machine, machine_sequence, based_on, change, made_by, numbered_at)
        VALUES (\(team), 1000000, \(machine), \(number), 0, '{}', \(role(member)), now())
        """, logger: logger)
      try await body(PushHold(server: self, number: number))
      // NB: A body that stops the server ends this session too, and the session may close
      // only once the rollback is sent: a rollback that fails on a closed session had nothing
      // left to undo. A statement sent on a session already closed is never answered.
      guard !connection.isClosed else { return }
      do {
        try await connection.query("ROLLBACK", logger: logger)
      } catch {
        guard connection.isClosed else { throw error }
      }
    }
  }
}

/// A push held by ``TestServer/holdingPushes(of:as:in:atChange:_:)``.
struct PushHold {
  let server: TestServer
  let number: Int64

  /// Returns once a push of member `name`'s waits at the held change; throws after a minute
  /// without one, or as soon as `gaveUp` says the push will not come.
  func waitUntilAPushWaits(as name: String, gaveUp: () -> Bool = { false }) async throws {
    try await server.waitUntil(
      """
      SELECT count(*) FROM pg_stat_activity
      WHERE usename = '\(server.role(name))' AND wait_event_type = 'Lock'
        AND query LIKE 'INSERT%'
      """, answers: "1\n", gaveUp: gaveUp, else: "no push of \(name)'s reached change \(number)")
  }
}
