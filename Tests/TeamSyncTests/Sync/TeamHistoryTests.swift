import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// `standups team prune`, as the schema's owner runs it (``TeamHistory``): what it keeps, and
/// what members, through psql, can and cannot do to a pruned history.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct TeamHistoryTests {
  static let members = Machine.platformMembers

  @Test func aPruneKeepsWhatTheSlowestMachineStillNeeds() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      for title in ["One", "Two", "Three"] {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
        try await alice.sync()
      }
      let bobsPlace = try #require(try await bob.database.teamMembership()).lastSequence

      let pruned = try #require(try await prune(server).first)
      #expect(pruned.prunedThrough == bobsPlace)
      #expect(pruned.kept == 3)
      #expect(pruned.waitedFor?.madeBy == server.role("bob"))
      let slowest = "Kept for the slowest machine, \(server.role("bob"))'s machine"
      #expect(pruned.sentences.joined().contains(slowest), "\(pruned.sentences)")

      // NB: Bob's machine pulls the changes kept for it, one by one, as before any prune.
      try await bob.database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(1200))))
      let round = try await bob.sync()
      #expect(round.pulled == 4)
      #expect(round.report.startedFromCompactedState == nil)
      try await alice.sync()
      #expect(try await alice.standups() == bob.standups())
      #expect(try await bob.standups()[id: Standup.mock.id]?.title == "Three")

      // NB: A removed member's machine is not waited for.
      let carol = try await Machine.platform(server, as: "carol")
      try await carol.sync()
      try await server.withAdministrator { connection in
        try await TeamSchema.removeMembers(
          team: "platform", roles: [server.role("carol")], on: connection,
          logger: TestServer.logger)
      }
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Four")))
      try await alice.sync()
      try await bob.sync()
      let again = try #require(try await prune(server).first)
      #expect(again.kept == 0)
      #expect(again.waitedFor == nil)

      // NB: Changes of the last idle days are kept, whoever has pulled them: a machine that
      // synced in that time finds its place whether or not it told the server.
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Five")))
      try await alice.sync()
      try await bob.sync()
      let recent = try #require(try await prune(server, recentChanges: true).first)
      #expect(recent.kept == 1)
      #expect(recent.keptDays == TeamHistory.defaultIdleDays)
      #expect(recent.sentences.contains("  Kept: every change made in the last 30 days."))
      #expect(recent.waitedFor == nil)
    }
  }

  /// Only the schema's owner compacts and prunes; members, through psql, can neither remove
  /// changes, write a compacted state, nor report another member's machine; a role outside the
  /// team sees none of it; and rows a member writes under another member's machine ID take
  /// none of that machine's numbers.
  @Test func onlyTheOwnerPrunesAndNoMemberCanReachAnothersPlace() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      try await server.makeOutsider("eve", password: "eve-secret")
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let alicesMachine = try #require(try await alice.database.teamMembership()).machine
      for number in [2, 3, 1_000_000] {
        let squatted = try await server.psql(
          """
          INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
          VALUES ('platform', '\(alicesMachine)', \(number), 0, '[]')
          """, as: "mallory", password: "mallory-secret")
        #expect(squatted.status == 0, "\(squatted.error)")
      }
      for title in ["Two", "Three"] {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
      }
      #expect(try await alice.sync().pushed == 2)
      try await bob.sync()
      #expect(try await bob.standups()[id: Standup.mock.id]?.title == "Three")

      // NB: A change mallory writes under alice's machine ID is mallory's: alice's machine tells
      // her that her title was replaced, as it would of any other member's change.
      let forged = try encoded(
        .edited(Standup.mock.id, StandupEdit(title: "Mallory's", seen: .init(title: "Two"))))
      let written = try await server.psql(
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        VALUES ('platform', '\(alicesMachine)', 2000000, 0, $j$\(forged)$j$)
        """, as: "mallory", password: "mallory-secret")
      #expect(written.status == 0, "\(written.error)")
      try await alice.sync()
      #expect(try await alice.database.valuesReplacedByTheTeam().map(\.value) == [.title("Three")])
      _ = try await prune(server)

      let bobs = server.role("bob")
      try await server.expectRefused(
        [
          "DELETE FROM standups_team.changes WHERE team = 'platform'",
          "UPDATE standups_team.compacted_states SET standups = '[]'",
          "INSERT INTO standups_team.compacted_states (team, through, pruned_through, standups) VALUES ('platform', 0, 0, '[]')",
          "DELETE FROM standups_team.compacted_machines",
          """
          INSERT INTO standups_team.machines (team, made_by, machine, pulled_through)
          VALUES ('platform', '\(bobs)', '\(UUID())', 0)
          """,
          """
          INSERT INTO standups_team.machines (team, machine, pulled_through, seen_at)
          VALUES ('platform', '\(UUID())', 0, 'infinity')
          """,
          "UPDATE standups_team.machines SET seen_at = 'infinity'",
        ], as: "mallory", password: "mallory-secret")
      let moved = try await server.psql(
        """
        WITH moved AS (UPDATE standups_team.machines SET pulled_through = 0 RETURNING 1)
        SELECT count(*) FROM moved
        """, as: "mallory", password: "mallory-secret")
      #expect(moved.standardOutput == "0\n", "mallory moved \(moved.standardOutput)")
      for table in ["compacted_states", "compacted_machines", "machines", "changes"] {
        let seen = try await server.psql(
          "SELECT count(*) FROM standups_team.\(table) WHERE team = 'platform'", as: "eve",
          password: "eve-secret")
        #expect(seen.standardOutput == "0\n", "eve sees \(table): \(seen.standardOutput)")
      }

      let member = try await standups(
        ["team", "prune", server.url(for: "alice")], ["PGPASSWORD": "alice-secret"])
      #expect(member.status == 77)
      #expect(member.error.contains("only its owner prunes"), "\(member.error)")
      let owner = try await standups(
        ["team", "prune", server.administratorURL], ["PGPASSWORD": server.administratorPassword])
      #expect(owner.status == 0, "\(owner.error)")
      #expect(owner.standardOutput.contains("“platform”: compacted through change"))
    }
  }

  /// No member, in psql, can hold the owner's prune or setup back: the locks they take are
  /// refused them, and a transaction of theirs open on every table the two read, holding
  /// advisory locks (which any role may take), does not make them wait.
  @Test func noMemberCanHoldTheOwnersPruneOrSetUpBack() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "One")))
      try await alice.sync()
      _ = try await prune(server)
      try await server.expectRefused(
        [
          "BEGIN; LOCK TABLE standups_team.compacted_states IN EXCLUSIVE MODE; COMMIT",
          "BEGIN; LOCK TABLE standups_team.schema_version IN EXCLUSIVE MODE; COMMIT",
        ], as: "mallory", password: "mallory-secret")

      try await server.asMember("mallory") { mallory in
        let logger = TestServer.logger
        try await mallory.query("BEGIN", logger: logger)
        for table in [
          "schema_version", "teams", "changes", "compacted_states", "compacted_machines",
          "horizons",
        ] {
          try await mallory.query(
            "SELECT count(*) FROM standups_team.\(unescaped: table)", logger: logger)
        }
        // NB: `team setup`'s, and the key `team prune` took before it locked a table of the
        // owner's.
        for key in [TeamSchema.setUpLock, 6_004_496_007_802_541_390] {
          try await mallory.query("SELECT pg_advisory_lock(\(key))", logger: logger)
        }
        let administrator = ["PGPASSWORD": server.administratorPassword]
        let pruned = try await standups(["team", "prune", server.administratorURL], administrator)
        #expect(pruned.status == 0, "\(pruned.error)")
        let setUp = try await standups(["team", "setup", server.administratorURL], administrator)
        #expect(setUp.status == 0, "\(setUp.error)")
        try await mallory.query("COMMIT", logger: logger)
      }
    }
  }

  /// Two prunes at once run one after the other, the second seeing what the first committed:
  /// both end, and the second has nothing left to remove.
  @Test func twoPrunesAtOnceRunOneAfterTheOther() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      for title in ["One", "Two", "Three"] {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
      }
      try await alice.sync()
      try await bob.sync()

      async let first = prune(server)
      async let second = prune(server)
      let removed = try await [first, second].map { $0.map(\.removed) }
      #expect(removed.contains([0]), "each prune removed \(removed)")
      #expect(removed.flatMap { $0 }.reduce(0, +) >= 4, "each prune removed \(removed)")
      #expect(try await bob.sync().pulled == 0)
      #expect(try await bob.standups()[id: Standup.mock.id]?.title == "Three")
    }
  }
}
