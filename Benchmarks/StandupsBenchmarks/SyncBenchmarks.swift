import Benchmark
import BenchmarkFixtures
import Foundation
import Models
import PostgresTestServer
import StorageClient
import Synchronization
import TeamSync

// What syncing with a team's server costs, against a real PostgreSQL cluster on loopback that
// the first case's setup starts: a change on one machine until it is in another's database, one
// change pushed as the team's standups grow, and a new machine's first pull.

func syncBenchmarks() {
  Benchmark("Sync.Propagation", configuration: spacedConfiguration()) { benchmark in
    guard let team = teams.withLock({ $0["propagation"] }) else { return }
    try await measurePropagation(in: team, benchmark)
  } setup: {
    try await startTeam("propagation", standups: 1)
  } teardown: {
    await stopTeam("propagation")
  }

  for count in [10, 10_000] {
    let name = "push, \(count)"
    Benchmark("Sync.Push/standups=\(count)", configuration: syncConfiguration()) { benchmark in
      guard let team = teams.withLock({ $0[name] }) else { return }
      let session = try await team.sender.engine.session()
      benchmark.startMeasurement()
      for iteration in benchmark.scaledIterations {
        try await team.sender.database.apply(
          .edited(Standup.mock.id, StandupEdit(title: "Title \(iteration)")))
        _ = try await session.round()
      }
      benchmark.stopMeasurement()
      await session.close()
    } setup: {
      try await startTeam(name, standups: count)
    } teardown: {
      await stopTeam(name)
    }
  }

  // NB: What one member can do to the others, within their rights, while another's edit travels:
  // hold a transaction open with a change in it, flood the team's channel with announcements,
  // take every connection their role may hold. The goal is Sync.Propagation's.
  for attack in Attack.allCases {
    let name = "attack, \(attack)"
    var underAttack = spacedConfiguration()
    underAttack.metrics = [.wallClock, .cpuTotal]
    Benchmark("Sync.UnderAttack/\(attack)", configuration: underAttack) { benchmark in
      guard let team = teams.withLock({ $0[name] }) else { return }
      try await measurePropagation(in: team, benchmark, beside: attack)
    } setup: {
      try await startTeam(name, standups: 1)
    } teardown: {
      await stopTeam(name)
    }
  }

  let joinCount = 10_000
  Benchmark("Sync.Join/standups=\(joinCount)", configuration: syncConfiguration()) { benchmark in
    guard let team = teams.withLock({ $0["join"] }) else { return }
    for _ in benchmark.scaledIterations {
      let newcomer = try await Machine.joining(team.server, as: "bob")
      benchmark.startMeasurement()
      _ = try await newcomer.engine.syncOnce()
      benchmark.stopMeasurement()
      try? FileManager.default.removeItem(at: newcomer.folder)
    }
  } setup: {
    try await startTeam("join", standups: joinCount)
  } teardown: {
    await stopTeam("join")
  }
}

/// Times edits from the team's sender until its receiver's running engine has applied them:
/// each edit pushed in a round on an open connection, measured until the receiver reports the
/// pull, beside `attack` when there is one.
private func measurePropagation(
  in team: Team, _ benchmark: Benchmark, beside attack: Attack? = nil
) async throws {
  let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
  let receiving = Task {
    await team.receiver.engine.run(onStatus: { _ in }, onPulled: { _ in arrived.yield() })
  }
  defer { receiving.cancel() }
  var waiting = arrivals.makeAsyncIterator()
  // NB: The receiver's first round, on connecting, applies what was there before.
  _ = try await team.sender.engine.syncOnce()
  try await attack?.start(on: team.server)
  do {
    try await measureEdits(team, benchmark, waiting: &waiting)
  } catch {
    await attack?.stop(on: team.server)
    throw error
  }
  await attack?.stop(on: team.server)
}

/// Each iteration: an edit on the sender, measured from its round to the receiver's pull.
private func measureEdits(
  _ team: Team, _ benchmark: Benchmark, waiting: inout AsyncStream<Void>.Iterator
) async throws {
  let session = try await team.sender.engine.session()
  for iteration in benchmark.scaledIterations {
    // NB: An edit that finds the receiver idle: its looks are at least `lookFloor` apart, so an
    // edit right behind the last one waits out the floor, as one right after a heartbeat's look
    // does (the slow tail).
    try await Task.sleep(for: TeamSyncEngine.lookFloor)
    let title = "Title \(iteration)"
    try await team.sender.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
    benchmark.startMeasurement()
    _ = try await session.round()
    // NB: Until the receiver holds this edit, not until its next report: a report told late (a
    // round that failed after applying, told by the next) would end the next edit's wait at once.
    repeat {
      _ = await waiting.next()
    } while try await team.receiver.database.readStandups()[id: Standup.mock.id]?.title != title
    benchmark.stopMeasurement()
  }
  await session.close()
}

/// A team on its own server: a sender that shared `standups` standups and pushed them, and a
/// receiver that pulled them.
private struct Team: Sendable {
  var server: TestServer
  var sender: Machine
  var receiver: Machine
}

/// One machine: its database in a folder of its own, and its engine.
private struct Machine: Sendable {
  var folder: URL
  var database: StandupsDatabase
  var engine: TeamSyncEngine

  static func joining(_ server: TestServer, as role: String) async throws -> Machine {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-benchmark-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let database = StandupsDatabase(path: folder.appendingPathComponent("s.sqlite").path)
    _ = try await database.load()
    let membership = try await database.joinTeam(
      server: server.url(for: role), team: "bench", machine: UUID())
    let engine = TeamSyncEngine(
      database: database, membership: membership, environment: ["PGPASSWORD": "\(role)-secret"])
    return Machine(folder: folder, database: database, engine: engine)
  }
}

private let teams = Mutex<[String: Team]>([:])

private func startTeam(_ name: String, standups count: Int) async throws {
  // NB: The server lives as long as the case: its setup starts it, its teardown stops it.
  let server = try await TestServer.start()
  try await server.makeTeam(
    "bench",
    members: ["alice": "alice-secret", "bob": "bob-secret", "mallory": "mallory-secret"])
  let team = Team(
    server: server, sender: try await .joining(server, as: "alice"),
    receiver: try await .joining(server, as: "bob"))
  var standups = standupsToStore(count: count)
  standups[id: standups[0].id] = nil
  standups.insert(.mock, at: 0)
  try await team.sender.database.apply(.added(standups.elements))
  try await team.sender.database.share(
    Array(standups.ids), with: team.sender.engine.membership.id)
  _ = try await team.sender.engine.syncOnce()
  _ = try await team.receiver.engine.syncOnce()
  teams.withLock { $0[name] = team }
}

private func stopTeam(_ name: String) async {
  guard let team = teams.withLock({ $0.removeValue(forKey: name) }) else { return }
  await team.server.stop()
  for folder in [team.sender.folder, team.receiver.folder] {
    try? FileManager.default.removeItem(at: folder)
  }
}

/// Sync cases talk to a server over loopback and write to a disk: few iterations, and no
/// allocation threshold (PostgreSQL's client and SQLite allocate as they do).
private func syncConfiguration() -> Benchmark.Configuration {
  var configuration = configuration()
  configuration.thresholds = [:]
  configuration.maxIterations = min(configuration.maxIterations, 200)
  return configuration
}

/// For cases whose edits are at least `lookFloor` apart, or wait for a look: twenty seconds give a
/// few dozen samples, where a smoke run keeps its few iterations.
private func spacedConfiguration() -> Benchmark.Configuration {
  var configuration = syncConfiguration()
  if ProcessInfo.processInfo.environment["STANDUPS_BENCHMARK_SMOKE"] == nil {
    configuration.maxDuration = .seconds(20)
  }
  return configuration
}

/// What a hostile member does beside the honest machines of ``syncBenchmarks()``, through psql
/// as they could: each runs in processes of its own, so that the engines' process measures only
/// the engines.
private enum Attack: String, CaseIterable {
  /// `BEGIN` and a change inserted, never committed.
  case openTransaction
  /// Announcements on the team's channel, each in a transaction of its own, without end.
  case announcementFlood
  /// Every connection mallory's role may hold, each idle.
  case connectionsTaken

  private static let running = Mutex<[Process]>([])

  func start(on server: TestServer) async throws {
    switch self {
    case .openTransaction:
      try launch(
        """
        BEGIN ISOLATION LEVEL SERIALIZABLE;
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        VALUES ('bench', gen_random_uuid(), 1, 0, '{}');
        SELECT pg_sleep(100000);
        """, on: server)
    case .announcementFlood:
      try launch(
        """
        DO $$
        DECLARE channel text := (SELECT t.channel FROM standups_team.teams t WHERE t.name = 'bench');
        BEGIN
          FOR i IN 1..100000000 LOOP
            PERFORM pg_notify(channel, i::text);
            COMMIT;
          END LOOP;
        END $$;
        """, on: server)
    case .connectionsTaken:
      for _ in 0..<TeamSchema.memberConnectionLimit {
        try launch("SELECT pg_sleep(100000);", on: server)
      }
    }
    // NB: Time to connect and begin, so that the attack runs before the first edit.
    try await Task.sleep(for: .seconds(1))
  }

  /// Ends the attack: mallory's sessions, through the administrator (a server session notices
  /// its client gone only when it next talks to it, which a loop of `pg_notify` never does), and
  /// then the psql processes, with `SIGKILL`: they inherit this process's blocked signals, so
  /// `SIGTERM` would wait for ever.
  func stop(on server: TestServer) async {
    _ = try? await server.administer(
      """
      SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
      WHERE usename = '\(server.role("mallory"))'
      """)
    let processes = Self.running.withLock { running in
      defer { running = [] }
      return running
    }
    for process in processes {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  private func launch(_ sql: String, on server: TestServer) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try TestServer.binary("psql"))
    process.arguments = [
      "-h", server.host, "-p", String(server.port), "-U", server.role("mallory"),
      "-d", server.database, "-X", "-q", "-c", sql,
    ]
    process.environment = ["PGPASSWORD": "mallory-secret"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    Self.running.withLock { $0.append(process) }
  }
}
