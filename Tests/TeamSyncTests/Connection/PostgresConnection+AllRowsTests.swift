import PostgresNIO
import PostgresTestServer
import Synchronization
import Testing

@testable import TeamSync

/// A server that ends the session while a result is being read (`pg_terminate_backend`, a
/// server shutting down) fails the statement and nothing more: the rows are read all at once
/// (`PostgresConnection.allRows`), never held back for a slow reader, which postgres-nio 1.33
/// answers with a crash of the whole process.
// NB: Thirty reads of 40 MB took a minute in CI's per-target run, beside every other suite.
@Suite(.timeLimit(.minutes(4)), .needsPostgreSQL)
struct AllRowsTests {
  @Test func aSessionTerminatedInTheMiddleOfALargeResultFailsTheStatementOnly() async throws {
    try await TestServer.withTestServer { server in
      var cutShort = 0
      for _ in 0..<30 {
        try await server.withAdministratorWhileStopping { connection in
          let session = try await connection.allRows("SELECT pg_backend_pid()", logger: logger)
          let pid = try session.decode(Int32.self)[0]
          let reading = Task {
            try await connection.allRows(
              "SELECT g, repeat('x', 200) FROM generate_series(1, 200000) AS g", logger: logger
            ).count
          }
          try await server.withAdministrator { administrator in
            // NB: While the session runs the statement, it is sending its rows (40 MB of them);
            // once it is idle, the reader has them all, and there is nothing to cut short.
            while true {
              let rows = try await administrator.allRows(
                """
                SELECT state, query LIKE '%generate_series%' FROM pg_stat_activity
                WHERE pid = \(pid)
                """, logger: logger)
              guard let (state, isTheRead) = try rows.first?.decode((String?, Bool).self)
              else { return }
              guard isTheRead else { continue }
              if state == "active" {
                _ = try await administrator.allRows(
                  "SELECT pg_terminate_backend(\(pid))", logger: logger)
              }
              return
            }
          }
          switch await reading.result {
          case .success(let count): #expect(count == 200_000)
          case .failure: cutShort += 1
          }
        }
      }
      #expect(cutShort > 0, "no session was terminated while its result was read")
    }
  }

  private var logger: Logger { TestServer.logger }
}
