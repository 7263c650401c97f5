import Foundation
import Models
import PostgresNIO
import PostgresTestServer
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// A machine in two teams on one server keeps one connection to it (`ServerLink`): both teams
/// sync on it, a role limited to one connection included; one team's flood or removal leaves the
/// other syncing.
@Suite(.timeLimit(.minutes(2)), .needsPostgreSQL)
struct ServerLinkTests {
  @Test func twoTeamsOnOneServerSyncOnTheOneConnectionTheRoleMayOpen() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob, carol) = try await aliceInPlatformAndDesign(on: server)
      try await server.administer("ALTER ROLE \(server.role("alice")) CONNECTION LIMIT 1")
      try await server.waitUntilNoSessionIsLeft(of: "alice")
      let engines = try await Engines(alice, sharing: true)
      defer { engines.stop() }

      try await renameEachTeamsStandup(bob, carol)
      try await engines.waitUntil {
        try await alice.standups().map(\.title) == ["Bob's", "Carol's"]
      }
      #expect(
        try await server.administer(
          "SELECT count(*) FROM pg_stat_activity WHERE usename = '\(server.role("alice"))'")
          == "1\n")

      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
      try await alice.database.apply(
        .edited(Standup.engineeringMock.id, StandupEdit(title: "Alice's too")))
      try await server.waitUntil(
        """
        SELECT count(*) FROM standups_team.changes
        WHERE made_by = '\(server.role("alice"))' AND change::text LIKE '%Alice''s%'
        """, answers: "2\n", gaveUp: { engines.problem != nil },
        else: "alice's edits did not reach the server")
      try await bob.sync()
      try await carol.sync()
      #expect(try await bob.standups().map(\.title) == ["Alice's"])
      #expect(try await carol.standups().map(\.title) == ["Alice's too"])
      #expect(engines.problem == nil)
    }
  }

  @Test func aFloodOfOneTeamsChannelLeavesTheOtherTeamSyncing() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob, carol) = try await aliceInPlatformAndDesign(on: server)
      let engines = try await Engines(alice, sharing: true)
      defer { engines.stop() }
      try await engines.waitUntil { engines.isOnline }

      // NB: mallory, of "platform" alone, floods its channel: 5,000 announcements in one
      // commit. The connection ends for both teams, and carol's edit of "design"'s standup
      // still arrives, as does bob's of "platform"'s, looked for twice a second.
      try await server.asMember("mallory") { mallory in
        try await mallory.query(
          """
          SELECT count(pg_notify(t.channel, n::text))
          FROM standups_team.teams AS t, generate_series(1, 5000) AS n
          WHERE t.name = 'platform'
          """, logger: TestServer.logger)
      }
      try await engines.waitUntil { await engines.platform.quietUntil != nil }
      try await renameEachTeamsStandup(bob, carol)
      try await engines.waitUntil {
        try await alice.standups().map(\.title) == ["Bob's", "Carol's"]
      }
      #expect(await engines.platform.quietUntil != nil)
      #expect(await engines.design.quietUntil == nil)
      #expect(engines.problem == nil)
    }
  }

  @Test func aTeamThatRemovesTheMemberLeavesTheOtherTeamSyncingOnTheConnection() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob, carol) = try await aliceInPlatformAndDesign(on: server)
      let engines = try await Engines(alice, sharing: true)
      defer { engines.stop() }
      try await engines.waitUntil { engines.isOnline }

      try await server.withAdministrator { connection in
        try await TeamSchema.removeMembers(
          team: "design", roles: [server.role("alice")], on: connection, logger: TestServer.logger)
      }
      try await engines.waitUntil(whateverTheProblems: true) { engines.designStopped }
      try await renameEachTeamsStandup(bob, carol)
      // NB: The removal is the problem told, and no other: the platform engine reports none.
      try await engines.waitUntil(whateverTheProblems: true) {
        try await alice.standups().map(\.title).first == "Bob's"
      }
      #expect(engines.problems.allSatisfy { if case .removed = $0 { true } else { false } })
      #expect(try await alice.standups().map(\.title) == ["Bob's", "Engineering"])
      #expect(try await alice.database.teamMemberships().map(\.team) == ["platform"])
    }
  }

  @Test func engineWorkOnASharedConnectionTakesTurnsAndNeverInterleaves() async throws {
    try await TestServer.withTestServer { server in
      try await server.createRole("alice", password: "alice-secret")
      let link = ServerLink(
        server: server.url(for: "alice"), environment: ["PGPASSWORD": "alice-secret"])
      // NB: Each turn is a transaction of its own: were two turns' statements to interleave, a
      // turn's second statement would run in another turn's transaction, under its number.
      let transactions = try await withThrowingTaskGroup(of: [Int64].self) { group in
        for _ in 0..<8 {
          group.addTask {
            try await link.withConnection { open in
              try await open.inTurn {
                var seen: [Int64] = []
                try await open.connection.query("BEGIN", logger: TestServer.logger)
                for _ in 0..<3 {
                  let rows = try await open.connection.query(
                    "SELECT txid_current(), pg_sleep(0.01)::text", logger: TestServer.logger)
                  for try await (number, _) in rows.decode((Int64, String).self) {
                    seen.append(number)
                  }
                }
                try await open.connection.query("COMMIT", logger: TestServer.logger)
                return seen
              }
            }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(transactions.count == 8)
      #expect(transactions.allSatisfy { Set($0).count == 1 })
      #expect(Set(transactions.map(\.first)).count == 8)
    }
  }

  /// A push that fails for a reason of its own leaves the session as it found it: the other
  /// teams' statements on the shared connection still read committed.
  @Test func aFailedSerializableStatementLeavesTheSharedSessionReadingCommitted() async throws {
    try await TestServer.withTestServer { server in
      try await server.createRole("alice", password: "alice-secret")
      let link = ServerLink(
        server: server.url(for: "alice"), environment: ["PGPASSWORD": "alice-secret"])
      let isolation = try await link.withConnection { open in
        await #expect(throws: PSQLError.self) {
          try await TeamServer.serializable(on: open.connection, logger: TestServer.logger) {
            try await open.connection.query("SELECT 1 / 0", logger: TestServer.logger)
          }
        }
        let rows = try await open.connection.query(
          "SHOW default_transaction_isolation", logger: TestServer.logger)
        var isolation = ""
        for try await value in rows.decode(String.self) { isolation = value }
        return isolation
      }
      #expect(isolation == "read committed")
    }
  }

  /// bob renames "platform"'s standup "Bob's", and carol "design"'s "Carol's"; each syncs.
  func renameEachTeamsStandup(_ bob: Machine, _ carol: Machine) async throws {
    try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
    try await bob.sync()
    try await carol.database.apply(
      .edited(Standup.engineeringMock.id, StandupEdit(title: "Carol's")))
    try await carol.sync()
  }

  /// Alice's machine in "platform" (the mock, shared with bob) and "design" (the engineering
  /// mock, shared with carol), each member's machine up to date.
  func aliceInPlatformAndDesign(
    on server: TestServer
  ) async throws -> (alice: Machine, bob: Machine, carol: Machine) {
    try await server.makeTeam("platform", members: Machine.platformMembers)
    try await server.withAdministrator { connection in
      _ = try await TeamSchema.addMembers(
        team: "design", roles: [server.role("alice"), server.role("carol")], on: connection,
        logger: TestServer.logger)
    }
    let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
    let aliceInDesign = try await alice.also("design", as: "alice", on: server)
    try await alice.database.apply(.added([.engineeringMock]))
    guard let design = try await aliceInDesign.membership() else {
      throw TestServerError("alice is not in design")
    }
    try await alice.database.share([Standup.engineeringMock.id], with: design.id)
    try await aliceInDesign.sync()
    let carol = try await Machine.joined(
      server, as: "carol", password: "carol-secret", team: "design")
    try await carol.sync()
    return (alice, bob, carol)
  }
}

/// Alice's two engines running as the app runs them, on one link or on one each.
private final class Engines: Sendable {
  let platform: TeamSyncEngine
  let design: TeamSyncEngine
  private let running: [Task<Void, Never>]
  private let events: AsyncStream<Void>
  private let told = Told()

  /// What the engines told: each team's last status, and every problem in the order told.
  private final class Told: Sendable {
    let statuses = Mutex<[String: TeamSyncStatus]>([:])
    let problems = Mutex<[SyncProblem]>([])
  }

  init(_ alice: Machine, sharing: Bool) async throws {
    let memberships = try await alice.database.teamMemberships()
    guard let platform = memberships.first(where: { $0.team == "platform" }),
      let design = memberships.first(where: { $0.team == "design" })
    else { throw TestServerError("alice is not in both teams") }
    let link = sharing ? ServerLink(server: platform.server, environment: alice.environment) : nil
    let engines = [platform, design].map {
      TeamSyncEngine(
        database: alice.database, membership: $0, environment: alice.environment, link: link)
    }
    self.platform = engines[0]
    self.design = engines[1]
    let (events, event) = AsyncStream.makeStream(of: Void.self)
    self.events = events
    let told = self.told
    running = zip(engines, [platform.team, design.team]).map { engine, team in
      Task {
        await engine.run(
          onStatus: { status in
            told.statuses.withLock { $0[team] = status }
            switch status {
            case .offline(_, let problem), .stopped(_, let problem):
              told.problems.withLock { $0.append(problem) }
            case .connecting, .online: break
            }
            event.yield()
          },
          onPulled: { _ in event.yield() })
      }
    }
  }

  /// Returns once `condition` holds, looking again at each status and pull of either engine;
  /// throws as soon as an engine reports a problem, unless `whateverTheProblems`.
  func waitUntil(
    whateverTheProblems: Bool = false, _ condition: @Sendable () async throws -> Bool
  ) async throws {
    var iterator = events.makeAsyncIterator()
    while try await !condition() {
      if !whateverTheProblems, let problem { throw problem }
      guard await iterator.next() != nil else { return }
    }
  }

  var isOnline: Bool {
    told.statuses.withLock { statuses in
      statuses.count == 2
        && statuses.values.allSatisfy { if case .online = $0 { true } else { false } }
    }
  }

  var designStopped: Bool {
    told.statuses.withLock { if case .stopped = $0["design"] { true } else { false } }
  }

  /// The first problem either engine reported, if any.
  var problem: SyncProblem? {
    told.problems.withLock { $0.first }
  }

  /// Every problem the engines reported, in the order told.
  var problems: [SyncProblem] {
    told.problems.withLock { $0 }
  }

  func stop() {
    for task in running { task.cancel() }
  }
}
