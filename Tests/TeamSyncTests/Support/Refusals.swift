import PostgresTestServer
import Testing

@testable import TeamSync

extension TestServer {
  /// Makes `name`, a role on the server in another team, "elsewhere", only: what it reads of
  /// "platform" through psql is what anyone outside that team with an account reads.
  func makeOutsider(_ name: String, password: String) async throws {
    try await createRole(name, password: password)
    _ = try await withAdministrator { connection in
      try await TeamSchema.addMembers(
        team: "elsewhere", roles: [role(name)], on: connection, logger: TestServer.logger)
    }
  }

  /// Expects the server to refuse each of `statements` to `member` through psql, by a privilege
  /// or a row-level security policy.
  func expectRefused(
    _ statements: [String], as member: String, password: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    for statement in statements {
      let refused = try await psql(statement, as: member, password: password)
      #expect(refused.status != 0, "\(statement) was let through", sourceLocation: sourceLocation)
      #expect(
        refused.error.contains("permission denied") || refused.error.contains("row-level"),
        "\(statement): \(refused.error)", sourceLocation: sourceLocation)
    }
  }
}
