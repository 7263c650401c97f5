import PostgresTestServer
import Testing

extension TestServer {
  /// Expects the server to refuse each of `statements` to `member` through psql, by a privilege
  /// or a row-level security policy.
  func expectRefused(
    _ statements: [String], as member: String, password: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for statement in statements {
      let refused = try psql(statement, as: member, password: password)
      #expect(refused.status != 0, "\(statement) was let through", sourceLocation: sourceLocation)
      #expect(
        refused.error.contains("permission denied") || refused.error.contains("row-level"),
        "\(statement): \(refused.error)", sourceLocation: sourceLocation)
    }
  }
}
