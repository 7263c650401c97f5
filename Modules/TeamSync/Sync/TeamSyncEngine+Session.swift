import PostgresNIO
import StorageClient

// Rounds on one connection kept open, for the benchmarks: a round's cost without the cost of
// connecting. The app's engine keeps its connection open in `run` instead.

extension TeamSyncEngine {
  /// One connection kept open for rounds made one after the other: what the benchmarks
  /// measure, a round without the cost of connecting.
  package struct Session: Sendable {
    let engine: TeamSyncEngine
    let connection: PostgresConnection
    let role: String

    /// One round on the open connection.
    package func round() async throws -> Round {
      try await engine.round(on: connection, role: role)
    }

    /// Closes the connection.
    package func close() async {
      try? await connection.close()
    }
  }

  /// Opens a ``Session``.
  package func session() async throws -> Session {
    let description = try ConnectionDescription(url: membership.server, environment: environment)
    let connection = try await description.connect(
      password: description.password(environment: environment), logger: logger)
    try await TeamServer.checkAccess(
      team: membership.team, role: description.user, on: connection, logger: logger)
    return Session(engine: self, connection: connection, role: description.user)
  }
}
