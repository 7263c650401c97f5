import PostgresTestServer

@testable import TeamSync

/// Prunes every team's history as the schema's owner (``TeamHistory``). Unless
/// `recentChanges`, every change is first dated a year back, as if the history were old, so that
/// only the machines hold the prune back.
func prune(
  _ server: TestServer, idleDays: Int = TeamHistory.defaultIdleDays, recentChanges: Bool = false
) async throws -> [TeamHistory.Pruned] {
  if !recentChanges {
    try await server.administer(
      """
      UPDATE standups_team.changes
      SET made_at = made_at - interval '1 year', numbered_at = numbered_at - interval '1 year'
      """)
  }
  return try await server.withAdministrator { connection in
    try await TeamHistory.prune(
      idleDays: idleDays, as: TestServer.administrator, on: connection,
      logger: TestServer.logger)
  }
}
