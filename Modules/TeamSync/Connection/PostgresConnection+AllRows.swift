import NIOCore
import PostgresNIO

extension PostgresConnection {
  /// Runs `query` and returns every row it gives, all read before it returns: how every statement
  /// of the sync that returns rows reads them.
  ///
  /// Why not the row sequence `query(_:logger:)` returns: postgres-nio (1.33) reads such a result
  /// under back-pressure, and when the server closes the connection while the reader waits for
  /// its consumer (an administrator's `pg_terminate_backend`, a server shutting down), it stops
  /// the whole process on one of its preconditions. Read all at once, on the connection's event
  /// loop, the rows never wait for a consumer. The sync's results are small by design (a pull's
  /// window holds at most ``TeamServer/pullBudget`` bytes). Guarded by `AllRowsTests`, which
  /// terminates the server's session in the middle of a large result.
  ///
  /// ```swift
  /// let rows = try await connection.allRows(
  ///   "SELECT name FROM standups_team.teams", logger: logger)
  /// let names = try rows.decode(String.self)
  /// ```
  func allRows(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
    let result: EventLoopFuture<PostgresQueryResult> = self.query(query, logger: logger)
    return try await result.get().rows
  }
}

extension [PostgresRow] {
  /// Each row's columns decoded as `columns`, in order.
  func decode<each Column: PostgresDecodable>(
    _ columns: (repeat each Column).Type
  ) throws -> [(repeat each Column)] {
    try map { try $0.decode(columns) }
  }
}
