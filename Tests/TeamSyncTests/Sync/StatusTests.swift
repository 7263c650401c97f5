import Foundation
import Models
import PostgresNIO
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// What the engine says about the team's server is true within seconds, in words: a server that
/// stopped answering is told as one, a server with no connection free for the role as one, and
/// each comes back to "in sync" once the server does.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct StatusTests {
  @Test func aServerThatStopsAnsweringIsToldAsOneAndSyncingGoesOnOnceItAnswers() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)

      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await alice.engine()
      let running = Task { await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in }) }
      defer { running.cancel() }
      var told = statuses.makeAsyncIterator()
      while let next = await told.next(), next != .online(waiting: 0) {}

      // NB: Stopped, the server's processes answer nothing, and its host acknowledges every
      // packet: keepalives never fire. Before, the app said nothing for minutes.
      try server.signalProcesses(SIGSTOP)
      do {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
        var last: TeamSyncStatus?
        while let next = await told.next() {
          last = next
          if case .offline(_, .noAnswer) = next { break }
        }
        #expect(last?.line == "offline, the server does not answer — 1 change waiting")
      }
      try server.signalProcesses(SIGCONT)

      while let next = await told.next(), next != .online(waiting: 0) {}
      try await bob.sync()
      #expect(try await bob.standups().first?.title == "Alice's")
    }
  }

  @Test func aCommandAgainstAServerThatStopsAnsweringEndsWithASentence() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))

      try server.signalProcesses(SIGSTOP)
      defer { try? server.signalProcesses(SIGCONT) }
      let problem = await #expect(throws: SyncProblem.self) { try await alice.sync() }
      guard case .noAnswer? = problem else {
        Issue.record("\(String(describing: problem))")
        return
      }
      #expect(problem?.exitCode == 69)
      #expect(problem?.description.contains("does not answer") == true)
      #expect(try await alice.database.waitingTeamChangeCount() == 1, "nothing lost")
    }
  }

  /// A member who floods the team's channel with announcements makes the others' engines stop
  /// listening for a while and look twice a second instead: another member's changes still
  /// arrive, while the flood goes on, and the flood costs the engine nothing more.
  @Test func aFloodOfAnnouncementsIsLeftUnheardAndChangesStillArrive() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let engine = try await alice.engine()
      let (events, running) = EngineEvent.run(engine)
      defer { running.cancel() }
      var heard = events.makeAsyncIterator()
      try #require(await heard.hear(until: \.isOnline) != nil)

      for title in ["Flooded", "Flooded again"] {
        // NB: A hundred announcements in one commit: a flood however busy the machine, and
        // heard before bob's, since alice listens once she is online.
        try await server.asMember("mallory") { mallory in
          try await mallory.query(
            """
            SELECT count(pg_notify(t.channel, n::text))
            FROM standups_team.teams AS t, generate_series(1, 100) AS n
            WHERE t.name = 'platform'
            """, logger: TestServer.logger)
        }
        try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
        try await bob.sync()
        while try await alice.standups().first?.title != title {
          switch await heard.next() {
          case .told, .pulled: continue
          case .stopped, nil:
            Issue.record("alice's engine stopped before “\(title)” arrived")
            return
          }
        }
      }
      #expect(await engine.quietUntil != nil)
      #expect(try await alice.standups() == bob.standups())
    }
  }

  /// A round that applies the team's changes here and then fails (a flood or a dead link ends
  /// its connection, the server refuses its last statement) has told the app nothing: the next
  /// round that works tells it, so that the screen shows what the database already holds.
  @Test func whatAFailedRoundAppliedIsToldAfterTheNextRoundThatWorks() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let engine = try await alice.engine()
      let (events, running) = EngineEvent.run(engine)
      defer { running.cancel() }
      var heard = events.makeAsyncIterator()
      let first = try #require(await heard.hear(until: \.isOnline))

      // NB: The round's last statement, the report of how far alice pulled, is refused: her
      // round applies bob's change, then fails.
      try await server.administer(
        """
        CREATE FUNCTION standups_team.refuse_alice() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF current_user = '\(server.role("alice"))' THEN RAISE EXCEPTION 'refused'; END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER refuse_alice BEFORE INSERT OR UPDATE ON standups_team.machines
          FOR EACH ROW EXECUTE FUNCTION standups_team.refuse_alice();
        """)
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.sync()
      let failed = try #require(await heard.hear(until: \.isOffline))
      #expect(try await alice.standups().first?.title == "Bob's", "applied before the failure")

      try await server.administer("DROP TRIGGER refuse_alice ON standups_team.machines")
      let afterwards = try #require(await heard.hear(until: \.isOnline))
      #expect((first + failed + afterwards).flatMap(\.standupIDs) == [Standup.mock.id])
    }
  }

  /// An engine that synced once before it runs (as the benchmarks' receivers do) tells, once
  /// running, only what its own rounds apply: the earlier round's report went to its caller.
  @Test func aRunTellsOnlyWhatItsOwnRoundsApplied() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let engine = try await alice.engine()
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.sync()
      let once = try await engine.syncOnce()
      try #require(once.report.standupIDs == [Standup.mock.id])

      let (events, running) = EngineEvent.run(engine)
      defer { running.cancel() }
      var heard = events.makeAsyncIterator()
      let told = try #require(await heard.hear(until: \.isOnline))
      #expect(told.isEmpty, "told again: \(told)")
    }
  }

  @Test func fiftyAnnouncementsInASecondAreHeardAndTheFirstOneMoreIsAFlood() {
    var rate = AnnouncementRate()
    let start = ContinuousClock.now
    let heard = (0..<AnnouncementRate.limit).map { tick in
      rate.takes(start + .milliseconds(tick * 10))
    }
    let oneMore = rate.takes(start + .milliseconds(990))
    let aSecondLater = rate.takes(start + .milliseconds(1000))
    #expect(heard.allSatisfy { $0 })
    #expect(!oneMore)
    #expect(aSecondLater)
  }

  @Test func aRoleWithNoConnectionFreeIsToldSoAndNotThatTheServerIsAway() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try await server.administer("ALTER ROLE \(server.role("alice")) CONNECTION LIMIT 1")
      try await server.waitUntilNoSessionIsLeft(of: "alice")

      try await server.asMember("alice") { _ in
        let problem = await #expect(throws: SyncProblem.self) { try await alice.sync() }
        guard case .noFreeConnection(_, let reason)? = problem else {
          Issue.record("\(String(describing: problem))")
          return
        }
        #expect(reason.contains("too many connections"), "\(reason)")
        #expect(problem?.exitCode == 75)
        #expect(
          TeamSyncStatus.offline(waiting: 0, problem: problem!).line
            == "offline, the server has no free connection — 0 changes waiting")
      }
      try await server.waitUntilNoSessionIsLeft(of: "alice")
      try await alice.sync()
    }
  }

  /// A machine whose disk fills: the round that would apply a teammate's meeting stops, says so
  /// in a sync's words (not "the change could not be saved": the user changed nothing), and
  /// applies it once there is room.
  @Test func aFullDiskStopsTheSyncInASyncsWordsAndLosesNothing() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_800_000_000),
        transcript: String(repeating: "A long meeting. ", count: 4000))
      try await bob.database.apply(.meetingRecorded(meeting, standup: .mock))
      try await bob.sync()

      // NB: SQLite keeps a database's page limit at its size at least: the disk is full now.
      var options = StandupsDatabase.Options()
      options.maximumPageCount = 1
      let full = StandupsDatabase(
        path: "\(alice.environment["HOME"] ?? "")/standups.sqlite", options: options)
      _ = try await full.load()
      guard let membership = try await alice.membership() else { return }
      let engine = TeamSyncEngine(
        database: full, membership: membership, environment: alice.environment)
      let problem = await #expect(throws: SyncProblem.self) { try await engine.syncOnce() }
      #expect(problem?.exitCode == 74)
      let sentence = problem?.description ?? ""
      #expect(
        sentence.hasPrefix(
          "The sync stopped. This machine's database could not be written: "
            + "the disk is full"), "\(sentence)")
      #expect(!sentence.contains("change could not be saved"), "\(sentence)")
      #expect(
        problem.map { TeamSyncStatus.offline(waiting: 0, problem: $0).line }
          == "team: waiting for this machine's database (the disk is full) — 0 changes waiting")
      #expect(try await alice.standups()[id: Standup.mock.id]?.meetings[id: meeting.id] == nil)

      try await alice.sync()
      #expect(try await alice.standups() == bob.standups())
    }
  }

  /// A server that takes the connection and says nothing holds the engine's next try for
  /// seconds: a change made meanwhile is counted on the status line at once, not when the try
  /// gives up.
  @Test func aChangeMadeWhileAConnectionIsTriedIsCountedAtOnce() async throws {
    let (attempts, attempt) = AsyncStream.makeStream(of: Int.self)
    // NB: The first connection ends at once, so that the engine is offline; the second is held
    // without a word, and with no limit on the answer it is tried until the connect timeout.
    let port = try LoopbackPort { _, number in
      attempt.yield(number)
      return number > 1
    }
    defer { port.stop() }
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (engine, database) = try await Self.engine(joinedToPort: port.port, in: folder)
    let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
    let running = Task { await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in }) }
    defer { running.cancel() }
    var told = statuses.makeAsyncIterator()
    let first = await told.next()
    guard case .offline(0, let firstProblem)? = first else {
      Issue.record("first told \(String(describing: first))")
      return
    }

    for await number in attempts where number == 2 { break }
    try await database.apply(.added([.mock]))
    try await database.share([Standup.mock.id])
    let next = await told.next()
    guard case .offline(let waiting, let problem)? = next else {
      Issue.record("then told \(String(describing: next))")
      return
    }
    #expect(waiting == 1)
    // NB: Told while the second try still waits: the try that gave up would say why.
    #expect(problem == firstProblem)
  }

  /// A connection's work that `CloseWatch` abandons is cancelled, and may still finish a round:
  /// its "online" must not be told after the "offline" the close made.
  @Test func aCancelledTaskTellsNothing() async throws {
    let folder = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (engine, _) = try await Self.engine(joinedToPort: 9, in: folder)
    let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
    let offline = TeamSyncStatus.offline(waiting: 0, problem: .noAnswer(server: "here"))
    await engine.tell(offline, to: { status.yield($0) })

    await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await engine.tell(.online(waiting: 0), to: { status.yield($0) })
    }.value
    status.finish()

    var told: [TeamSyncStatus] = []
    for await next in statuses { told.append(next) }
    #expect(told == [offline])
    #expect(await engine.lastStatus == offline)
  }

  private static func temporaryFolder() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("teamsync-\(UUID().uuidString.prefix(8))")
  }

  /// An engine of a machine in team "platform" on a server at `port` of the loopback interface,
  /// which tries it with no limit on the answer.
  private static func engine(
    joinedToPort port: Int, in folder: URL
  ) async throws -> (TeamSyncEngine, StandupsDatabase) {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let database = StandupsDatabase(path: folder.appendingPathComponent("standups.sqlite").path)
    _ = try await database.load()
    let server = "postgresql://alice@127.0.0.1:\(port)/postgres?sslmode=disable"
    try await database.joinTeam(server: server, team: "platform", machine: UUID())
    let membership = try #require(try await database.teamMemberships().first)
    let environment = ["PGPASSWORD": "alice-secret", "HOME": folder.path]
    let engine = TeamSyncEngine(
      database: database, membership: membership, environment: environment,
      link: ServerLink(server: server, environment: environment, answerLimit: nil))
    return (engine, database)
  }
}

/// What a running engine did, in the order it did it.
private enum EngineEvent: Sendable {
  case told(TeamSyncStatus)
  case pulled(TeamPullReport)
  case stopped

  /// Runs `engine` as the app does, until the task is cancelled; what it does, its end included,
  /// comes out as events: a test waiting on an engine that stopped hears so, rather than wait
  /// for ever.
  static func run(_ engine: TeamSyncEngine) -> (AsyncStream<Self>, Task<Void, Never>) {
    let (events, hear) = AsyncStream.makeStream(of: Self.self)
    let running = Task {
      await engine.run(onStatus: { hear.yield(.told($0)) }, onPulled: { hear.yield(.pulled($0)) })
      hear.yield(.stopped)
    }
    return (events, running)
  }
}

extension AsyncStream<EngineEvent>.Iterator {
  /// Hears the engine until it tells a status `isLast` accepts; returns the reports it pulled
  /// meanwhile, or `nil` when it stopped first.
  fileprivate mutating func hear(until isLast: (TeamSyncStatus) -> Bool) async -> [TeamPullReport]?
  {
    var pulled: [TeamPullReport] = []
    while true {
      switch await next() {
      case .told(let status): if isLast(status) { return pulled }
      case .pulled(let report): pulled.append(report)
      case .stopped, nil: return nil
      }
    }
  }
}

extension TeamSyncStatus {
  fileprivate var isOnline: Bool { if case .online = self { true } else { false } }
  fileprivate var isOffline: Bool { if case .offline = self { true } else { false } }
}
