import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A `standups team join` whose sync the server ends: the machine is in no team again, and its
/// own standups are as they were, so the next join finds what the first one would have.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct JoinCutShortTests {
  @Test func aJoinCutShortPutsBackWhatItKeptApart() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let alice = try Home(password: "alice-secret", in: server.folder)
      let platform = server.url(for: "alice")
      for command in [
        ["import", try alice.write(standups: [.mock, .engineeringMock])],
        ["team", "join", platform, "platform"], ["share", Standup.mock.title], ["team", "leave"],
      ] {
        let done = try await standups(command, alice.environment)
        #expect(done.status == 0, "\(command): \(done.error)")
      }
      var edited = Standup.mock
      edited.title = "Edited while away"
      #expect(
        try await standups(["import", try alice.write(standups: [edited])], alice.environment)
          .status == 0)
      let before = try await StandupsDatabase(path: alice.database).readStandups()

      // NB: The administrator holds the table where machines report how far they pulled: the
      // join waits there, its pull applied and alice's standup kept apart, when the server stops.
      try await server.withAdministratorWhileStopping { connection in
        try await connection.query("BEGIN", logger: TestServer.logger)
        try await connection.query(
          "LOCK TABLE standups_team.machines IN SHARE MODE", logger: TestServer.logger)
        let join = try start(
          ["team", "join", platform, "platform"], alice.environment, errorFile: alice.errorFile)
        try await server.waitUntil(
          """
          SELECT count(*) FROM pg_stat_activity
          WHERE usename = '\(server.role("alice"))' AND wait_event_type = 'Lock'
            AND query LIKE 'INSERT INTO standups_team.machines%'
          """, answers: "1\n", gaveUp: { !join.isRunning },
          else: "the join never reported how far it pulled")
        #expect(
          try await titles(at: alice.database) == [
            "Design", "Edited while away (kept here)", "Engineering",
          ])
        try await server.stopImmediately()
        try #require(await endsWithin(seconds: 60, join), "team join hung when the server stopped")
        #expect(join.terminationStatus == 69)
      }
      let after = StandupsDatabase(path: alice.database)
      #expect(try await after.readStandups() == before)
      #expect(try await after.teamMemberships().isEmpty)

      try await server.startAgain()
      let again = try await standups(["team", "join", platform, "platform"], alice.environment)
      #expect(again.status == 0, "\(again.error)")
      #expect(
        try await titles(at: alice.database) == [
          "Design", "Edited while away (kept here)", "Engineering",
        ])
    }
  }

  /// The same when the join's caller leaves while the join's round still runs, as it may when
  /// the connection closes (the caller is told at once; the abandoned round ends later, or
  /// never): the engine noted the copy as the pull's window was applied, and puts it back.
  @Test func aLeaveWhileTheJoinsRoundStillRunsPutsBackWhatItKeptApart() async throws {
    try await TestServer.withTestServer { server in
      let (alice, joined, before) = try await aliceBackInTheTeamWithAnEdit(server)
      let engine = TeamSyncEngine(
        database: alice.database, membership: joined, environment: alice.environment)

      // NB: The administrator holds the table where machines report how far they pulled: the
      // round waits there, its pull applied and alice's standup kept apart, while alice leaves.
      try await server.withAdministrator { connection in
        try await connection.query("BEGIN", logger: TestServer.logger)
        try await connection.query(
          "LOCK TABLE standups_team.machines IN SHARE MODE", logger: TestServer.logger)
        let join = Task { try await engine.syncOnce() }
        try await server.waitUntil(
          """
          SELECT count(*) FROM pg_stat_activity
          WHERE usename = '\(server.role("alice"))' AND wait_event_type = 'Lock'
            AND query LIKE 'INSERT INTO standups_team.machines%'
          """, answers: "1\n", else: "the join never reported how far it pulled")
        #expect(
          try await alice.standups().map(\.title).sorted() == [
            "Design", "Edited while away (kept here)",
          ])
        try await engine.leaveAfterAFailedJoin()
        try await connection.query("ROLLBACK", logger: TestServer.logger)
        _ = await join.result
      }
      #expect(try await alice.standups() == before)
      #expect(try await alice.database.teamMemberships().isEmpty)
    }
  }

  /// The same when the leave comes while a write of the round is under way here: the leave
  /// waits for the write, and puts back what it kept apart. The write is the pull's, of another
  /// machine's change that adds alice's standup, held until the leave waits.
  @Test func aLeaveWaitsForAWriteOfTheRoundUnderWay() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("join-cut-short-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = StandupsDatabase(path: folder.appendingPathComponent("standups.sqlite").path)
    _ = try await database.load()
    var edited = Standup.mock
    edited.title = "Edited while away"
    try await database.apply(.added([edited]))
    let before = try await database.readStandups()
    let joined = try await database.joinTeam(
      server: "postgresql://alice@localhost/standups", team: "platform", machine: UUID())
    let engine = TeamSyncEngine(database: database, membership: joined, environment: [:])
    let teamAddsTheMock = PulledTeamChange(
      sequence: 1, machine: UUID(), machineSequence: 1, madeBy: "bob",
      change: try encoded(.added([.mock])))

    let (held, letGo) = AsyncStream<Void>.makeStream()
    let write = Task {
      try await engine.applying {
        for await _ in held { break }
        return try await database.applyPulledTeamChanges(
          [teamAddsTheMock], in: joined.id, through: 1, as: "alice")
      }
    }
    try await until("the write began") { await engine.writesUnderWay == 1 }
    let leave = Task { try await engine.leaveAfterAFailedJoin() }
    try await until("the leave waited for the write") {
      await engine.callersWaitingForWrites == 1
    }
    letGo.yield()
    #expect(try await write.value.keptApart.map(\.copy.title) == ["Edited while away (kept here)"])
    try await leave.value
    #expect(try await database.readStandups() == before)
    #expect(try await database.teamMemberships().isEmpty)
  }

  /// Alice's machine, which shared the mock with "platform", left, and edited it; then joined
  /// again, not yet synced. Returns the membership and her standups before the join.
  private func aliceBackInTheTeamWithAnEdit(
    _ server: TestServer
  ) async throws -> (Machine, TeamMembership, IdentifiedArrayOf<Standup>) {
    try await server.makeTeam("platform", members: Machine.platformMembers)
    let alice = try await Machine.platform(server, as: "alice")
    try await alice.shareTheMock()
    let left = try #require(try await alice.membership())
    try await alice.database.leaveTeam()
    try await alice.database.apply(
      .edited(Standup.mock.id, StandupEdit(title: "Edited while away")))
    let before = try await alice.standups()
    let joined = try await alice.database.joinTeam(
      server: left.server, team: left.team, machine: UUID())
    return (alice, joined, before)
  }

  /// Returns once `condition` holds, giving the other tasks their turn between looks (no clock);
  /// throws `failure` when it still does not after a hundred thousand turns.
  private func until(
    _ failure: String, _ condition: () async -> Bool
  ) async throws {
    for _ in 0..<100_000 {
      if await condition() { return }
      await Task.yield()
    }
    throw TestServerError(failure)
  }

  private func titles(at path: String) async throws -> [String] {
    try await StandupsDatabase(path: path).readStandups().map(\.title).sorted()
  }
}
