import Foundation
import PostgresNIO
import PostgresTestServer
import TeamSync
import Testing

/// The team schema on a real PostgreSQL 15 server (``TestServer``), each test with a database
/// and roles of its own.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct TeamSchemaTests {
  let logger = {
    var logger = Logger(label: "TeamSyncTests")
    logger.logLevel = .error
    return logger
  }()

  @Test func setUpCreatesTheSchemaOnceAndRunningItAgainChangesNothing() async throws {
    try await TestServer.withTestServer { server in
      try await server.withAdministrator { connection in
        #expect(try await TeamSchema.version(on: connection, logger: logger) == 0)
        try await TeamSchema.setUp(on: connection, logger: logger)
        #expect(
          try await TeamSchema.version(on: connection, logger: logger) == TeamSchema.currentVersion)
      }
      let shape = try await server.administer(Self.shapeQuery)
      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: logger)
        #expect(
          try await TeamSchema.version(on: connection, logger: logger) == TeamSchema.currentVersion)
      }
      #expect(try await server.administer(Self.shapeQuery) == shape)
      #expect(
        try await server.administer(
          """
          SELECT string_agg(relname || '=' || relrowsecurity || '/' || relforcerowsecurity, ','
                            ORDER BY relname)
          FROM pg_class WHERE relnamespace = 'standups_team'::regnamespace AND relkind = 'r'
          """
        )
          == """
          changes=true/true,compacted_machines=true/true,compacted_states=true/true,\
          horizons=true/true,machines=true/true,schema_version=false/false,\
          team_members=true/true,teams=true/true\n
          """
      )
    }
  }

  @Test func aSchemaFromANewerReleaseIsRefusedWithASentenceAndLeftAlone() async throws {
    try await TestServer.withTestServer { server in
      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: logger)
      }
      try await server.administer("UPDATE standups_team.schema_version SET version = 99")
      try await server.withAdministrator { connection in
        let error = await #expect(throws: TeamSchemaError.self) {
          try await TeamSchema.setUp(on: connection, logger: logger)
        }
        #expect(error == .newerSchema(found: 99, supported: TeamSchema.currentVersion))
        #expect(error?.description.contains("newer release") == true)
        let version = try await TeamSchema.version(on: connection, logger: logger)
        #expect(version == 99)
      }
    }
  }

  @Test func addingMembersNeedsExistingLoginRoles() async throws {
    try await TestServer.withTestServer { server in
      let readers = server.role("readers")
      let nobody = server.role("nobody")
      try await server.administer("CREATE ROLE \(readers) NOLOGIN")
      try await server.withAdministrator { connection in
        await #expect(throws: TeamSchemaError.missingSchema) {
          try await TeamSchema.addMembers(
            team: "A", roles: [readers], on: connection, logger: logger)
        }
        try await TeamSchema.setUp(on: connection, logger: logger)
        await #expect(throws: TeamSchemaError.noSuchRole(nobody)) {
          try await TeamSchema.addMembers(
            team: "A", roles: [nobody], on: connection, logger: logger)
        }
        await #expect(throws: TeamSchemaError.notALoginRole(readers)) {
          try await TeamSchema.addMembers(
            team: "A", roles: [readers], on: connection, logger: logger)
        }
      }
      // NB: All or none: the failed calls made no team.
      #expect(try await server.administer("SELECT count(*) FROM standups_team.teams") == "0\n")
    }
  }

  /// Row-level security as a member sees it through psql, with SQL written by hand: no app.
  @Test func aRoleSeesAndChangesOnlyTheRowsOfItsTeams() async throws {
    try await TestServer.withTestServer { server in
      // NB: A role name that needs quoting proves the grants quote it.
      for name in ["alice", "bob", "Carol Q"] {
        try await server.createRole(name, password: Self.password(of: name))
      }
      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: logger)
        let alice = server.role("alice")
        try await TeamSchema.addMembers(team: "A", roles: [alice], on: connection, logger: logger)
        try await TeamSchema.addMembers(
          team: "B", roles: [server.role("bob"), server.role("Carol Q")], on: connection,
          logger: logger)
        // NB: Adding again changes nothing.
        try await TeamSchema.addMembers(team: "A", roles: [alice], on: connection, logger: logger)
      }

      let insertA = """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        VALUES ('A', '00000000-0000-0000-0000-00000000000a', 1, 0,
                '{"deleted": "00000000-0000-0000-0000-00000000000a"}')
        """
      let alice = try await psql(
        server, insertA + "; " + insertA.replacingOccurrences(of: ", 1, 0", with: ", 2, 0"),
        as: "alice")
      #expect(alice.status == 0, "\(alice.error)")
      #expect(
        try await psql(
          server, "SELECT sequence, made_by FROM standups_team.changes ORDER BY 1", as: "alice"
        )
        .standardOutput == "1|\(server.role("alice"))\n2|\(server.role("alice"))\n")

      for outsider in ["bob", "Carol Q"] {
        for table in ["changes", "teams", "team_members"] {
          let rows = try await psql(
            server,
            "SELECT count(*) FROM standups_team.\(table) WHERE \(table == "teams" ? "name" : "team") = 'A'",
            as: outsider)
          #expect(rows.status == 0, "\(rows.error)")
          #expect(rows.standardOutput == "0\n", "\(outsider) sees team A's \(table)")
        }
        let insert = try await psql(
          server, insertA.replacingOccurrences(of: ", 1, 0", with: ", 3, 0"), as: outsider)
        #expect(insert.status != 0)
        #expect(insert.error.contains("row-level security"), "\(insert.error)")
      }

      // NB: The history is append-only, even for its own members.
      for statement in [
        "UPDATE standups_team.changes SET change = '{}' WHERE team = 'A'",
        "DELETE FROM standups_team.changes WHERE team = 'A'",
        "UPDATE standups_team.teams SET channel = DEFAULT",
        "INSERT INTO standups_team.horizons (team, through) VALUES ('A', 100)",
      ] {
        let refused = try await psql(server, statement, as: "alice")
        #expect(refused.error.contains("permission denied"), "\(statement): \(refused.error)")
      }

      // NB: bob keeps his grants but leaves every team: RLS alone now shuts him out.
      try await server.administer(
        "DELETE FROM standups_team.team_members WHERE role = '\(server.role("bob"))'")
      for table in ["changes", "teams", "team_members"] {
        #expect(
          try await psql(server, "SELECT count(*) FROM standups_team.\(table)", as: "bob")
            .standardOutput == "0\n")
      }
      // NB: A team that does not exist reads as one the role is not in: names cannot be probed.
      var refusals: Set<String> = []
      for team in ["A", "B", "no such team"] {
        let insert = try await psql(
          server,
          insertA.replacingOccurrences(of: "'A'", with: "'\(team)'")
            .replacingOccurrences(of: ", 1, 0", with: ", 4, 0"), as: "bob")
        #expect(insert.error.contains("row-level security"), "\(insert.error)")
        refusals.insert(insert.error)
      }
      #expect(refusals.count == 1, "\(refusals)")

      // NB: A change cannot claim another author, nor choose its place in the order (the
      // refused one used a number up: the server numbers a member's row before it checks it).
      let forged = try await psql(
        server,
        """
        INSERT INTO standups_team.changes
          (team, machine, machine_sequence, based_on, change, made_by)
        VALUES ('A', '00000000-0000-0000-0000-00000000000a', 5, 0, '{}', '\(server.role("bob"))')
        """,
        as: "alice")
      #expect(forged.error.contains("row-level security"), "\(forged.error)")
      let placed = try await psql(
        server,
        """
        INSERT INTO standups_team.changes
          (team, sequence, machine, machine_sequence, based_on, change)
        VALUES ('A', 1000, '00000000-0000-0000-0000-00000000000a', 6, 0, '{}')
        RETURNING sequence
        """,
        as: "alice")
      let number = Int(placed.standardOutput.prefix { $0.isNumber })
      #expect(
        number.map { $0 > 2 && $0 < 1000 } == true, "\(placed.standardOutput) \(placed.error)")
    }
  }

  private func psql(_ server: TestServer, _ sql: String, as role: String) async throws
    -> CommandOutput
  {
    try await server.psql(sql, as: role, password: Self.password(of: role))
  }

  private static func password(of role: String) -> String {
    "\(role.replacingOccurrences(of: " ", with: "-"))-secret"
  }

  /// Everything setting up makes: tables, columns, functions, policies, grants.
  private static let shapeQuery = """
    SELECT string_agg(line, E'\\n' ORDER BY line) FROM (
      SELECT table_name || '.' || column_name || ' ' || data_type AS line
      FROM information_schema.columns WHERE table_schema = 'standups_team'
      UNION ALL SELECT 'policy ' || tablename || '.' || policyname || ' ' || coalesce(qual, '')
      FROM pg_policies WHERE schemaname = 'standups_team'
      UNION ALL SELECT 'function ' || proname FROM pg_proc
      WHERE pronamespace = 'standups_team'::regnamespace
      UNION ALL SELECT 'version ' || version FROM standups_team.schema_version
    ) shape
    """
}
