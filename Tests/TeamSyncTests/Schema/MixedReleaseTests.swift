import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// Releases of different ages on one team's server. A newer release is played by a test
/// migration (a column, a table, a version above this release's) and by rows written through
/// psql as that release would write them; this release is the older one.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct MixedReleaseTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret"]
  static let bobsMachine = "00000000-0000-0000-0000-0000000000b0"

  @Test func anOlderReleaseKeepsSyncingWhatItUnderstandsAndLeavesTheNewerFieldsAlone()
    async throws
  {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      try await alice.shareTheMock()
      try await upgradeAsANewerRelease(server, compatibleFrom: TeamSchema.currentVersion)

      // NB: Bob's newer release edits the title with a field this release does not know, says
      // how it felt in the new column, reacts in the new table, and writes a kind of change
      // this release cannot read.
      let edit = try withNewerField(.edited(Standup.mock.id, StandupEdit(title: "Newer")))
      let reaction = #"{"reacted": {"standup": "\#(Standup.mock.id.rawValue)", "emoji": "tada"}}"#
      try await psqlAsBob(
        server,
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change, mood)
        VALUES ('platform', '\(Self.bobsMachine)', 1, 1, $j$\(edit)$j$, 'happy'),
               ('platform', '\(Self.bobsMachine)', 2, 1, $j$\(reaction)$j$, NULL);
        INSERT INTO standups_team.reactions (team, sequence, emoji) VALUES ('platform', 2, 'tada')
        """)

      try await alice.database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(1200))))
      let round = try await alice.sync()
      #expect(round.pushed == 1)
      #expect(round.report.skipped.map(\.sequence) == [3])
      let standup = try #require(try await alice.standups()[id: Standup.mock.id])
      #expect(standup.title == "Newer")
      #expect(standup.duration == .seconds(1200))

      // NB: The newer release's column, field and table are as it wrote them; this release's
      // rows leave its column empty.
      #expect(
        try await server.administer(
          """
          SELECT made_by = '\(server.role("bob"))', mood, change -> 'edited' -> 'edit' ->> 'color'
          FROM standups_team.changes ORDER BY sequence
          """)
          == "f||\nt|happy|teal\nt||\nf||\n")
      #expect(try await server.administer("SELECT emoji FROM standups_team.reactions") == "tada\n")
    }
  }

  @Test func aSchemaThisReleaseCannotUseStopsItsSyncingAndLeavesItsDataAlone() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      try await alice.shareTheMock()
      let newer = TeamSchema.currentVersion + 1
      try await upgradeAsANewerRelease(server, compatibleFrom: newer)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting")))
      let before = try await alice.standups()
      let changesOnTheServer = try await server.administer(
        "SELECT count(*) FROM standups_team.changes")

      let problem = SyncProblem.schema(
        .newerSchema(found: newer, supported: TeamSchema.currentVersion))
      await #expect(throws: problem) { try await alice.sync() }
      #expect(problem.description.hasSuffix("update standups."))
      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      try await alice.engine().run(onStatus: { status.yield($0) }, onPulled: { _ in })
      status.finish()
      var last: TeamSyncStatus?
      for await next in statuses { last = next }
      #expect(last == .stopped(waiting: 1, problem: problem))
      #expect(last?.line == "team: not syncing — update standups")

      #expect(try await alice.standups() == before)
      #expect(try await alice.database.waitingTeamChangeCount() == 1)
      #expect(try await alice.database.teamMembership() != nil)
      #expect(
        try await server.administer("SELECT count(*) FROM standups_team.changes")
          == changesOnTheServer)
      _ = try await server.withAdministrator { connection in
        await #expect(throws: TeamSchemaError.newerSchema(found: newer, supported: newer - 1)) {
          try await TeamSchema.addMembers(
            team: "platform", roles: [server.role("alice")], on: connection,
            logger: TestServer.logger)
        }
      }
    }
  }

  /// The same upgrade made while the app syncs: the engine's next round stops before it pushes
  /// or pulls, though its connection was taken, and the schema checked, before the upgrade.
  @Test func aSchemaUpgradedWhileTheEngineRunsStopsItsNextRound() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      try await alice.shareTheMock()
      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await alice.engine()
      let running = Task {
        await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in })
        status.finish()
      }
      defer { running.cancel() }
      var told = statuses.makeAsyncIterator()
      while let next = await told.next(), next != .online(waiting: 0) {}
      let changesOnTheServer = try await server.administer(
        "SELECT count(*) FROM standups_team.changes")

      let newer = TeamSchema.currentVersion + 1
      try await upgradeAsANewerRelease(server, compatibleFrom: newer)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting")))
      var after: TeamSyncStatus?
      while let next = await told.next() {
        if case .stopped = next { after = next }
        if after != nil || next == .online(waiting: 0) { break }
      }
      #expect(
        after
          == .stopped(
            waiting: 1,
            problem: .schema(.newerSchema(found: newer, supported: TeamSchema.currentVersion))))
      #expect(
        try await server.administer("SELECT count(*) FROM standups_team.changes")
          == changesOnTheServer)
    }
  }

  @Test func aServerOfTheFirstSchemaIsNotSyncedWithUntilItsOwnerSetsItUpAgain() async throws {
    try await TestServer.withTestServer { server in
      // NB: The first release's schema and members, as its `team setup` and `team add` made
      // them: the upgrade must grant them what later schemas added.
      for (name, password) in Self.members { try await server.createRole(name, password: password) }
      try await server.withAdministrator { connection in
        try await connection.query("BEGIN", logger: TestServer.logger)
        for statement in TeamSchema.migrations[0] {
          try await connection.query(statement, logger: TestServer.logger)
        }
        try await connection.query(
          "INSERT INTO standups_team.schema_version (version) VALUES (1)", logger: TestServer.logger
        )
        for role in Self.members.keys.map(server.role) {
          try await connection.query(
            "SELECT standups_team.add_member('platform', \(role))", logger: TestServer.logger)
        }
        try await connection.query("COMMIT", logger: TestServer.logger)
      }
      let alice = try await Machine.platform(server, as: "alice")
      try await alice.database.apply(.added([.mock]))
      try await alice.database.share([Standup.mock.id])
      await #expect(
        throws: SyncProblem.schema(
          .otherVersion(found: 1, supported: TeamSchema.currentVersion))
      ) { try await alice.sync() }

      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: TestServer.logger)
      }
      #expect(try await alice.sync().pushed == 1)
      let bob = try await Machine.platform(server, as: "bob")
      try await bob.sync()
      #expect(try await bob.standups() == alice.standups())
      #expect(
        try await server.administer(
          "SELECT version, compatible_from FROM standups_team.schema_version")
          == "\(TeamSchema.currentVersion)|\(TeamSchema.compatibleFrom)\n")
    }
  }

  /// What a newer release's `team setup` might do: add a column to the changes and a table of
  /// its own, granted to the members, and record its version and the oldest it serves.
  private func upgradeAsANewerRelease(_ server: TestServer, compatibleFrom: Int) async throws {
    let members = Self.members.keys.sorted().map(server.role).joined(separator: ", ")
    try await server.administer(
      """
      ALTER TABLE standups_team.changes ADD COLUMN mood text;
      CREATE TABLE standups_team.reactions (
        team text NOT NULL, sequence bigint NOT NULL, emoji text NOT NULL,
        made_by name NOT NULL DEFAULT current_user
      );
      GRANT SELECT, INSERT ON standups_team.reactions TO \(members);
      UPDATE standups_team.schema_version
      SET version = \(TeamSchema.currentVersion + 1), compatible_from = \(compatibleFrom)
      """)
  }

  /// `change`'s JSON with a field in its edit that only a newer release knows.
  private func withNewerField(_ change: StandupsChange) throws -> String {
    var json = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(change)) as? [String: Any])
    var edited = try #require(json["edited"] as? [String: Any])
    var edit = try #require(edited["edit"] as? [String: Any])
    edit["color"] = "teal"
    edited["edit"] = edit
    json["edited"] = edited
    return String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
  }

  private func psqlAsBob(_ server: TestServer, _ sql: String) async throws {
    let output = try await server.psql(sql, as: "bob", password: "bob-secret")
    #expect(output.status == 0, "\(output.error)")
  }
}
