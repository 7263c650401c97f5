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
  Benchmark("Sync.Propagation", configuration: syncConfiguration()) { benchmark in
    guard let team = teams.withLock({ $0["propagation"] }) else { return }
    let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
    let receiving = Task {
      await team.receiver.engine.run(onStatus: { _ in }, onPulled: { _ in arrived.yield() })
    }
    defer { receiving.cancel() }
    var waiting = arrivals.makeAsyncIterator()
    // NB: The receiver's first round, on connecting, applies what was there before.
    _ = try await team.sender.engine.syncOnce()
    let session = try await team.sender.engine.session()
    for iteration in benchmark.scaledIterations {
      try await team.sender.database.apply(
        .edited(Standup.mock.id, StandupEdit(title: "Title \(iteration)")))
      benchmark.startMeasurement()
      _ = try await session.round()
      _ = await waiting.next()
      benchmark.stopMeasurement()
    }
    await session.close()
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
    let membership = TeamMembership(
      server: server.url(for: role), team: "bench", machine: UUID())
    try await database.joinTeam(
      server: membership.server, team: membership.team, machine: membership.machine)
    let engine = TeamSyncEngine(
      database: database, membership: membership, environment: ["PGPASSWORD": "\(role)-secret"])
    return Machine(folder: folder, database: database, engine: engine)
  }
}

private let teams = Mutex<[String: Team]>([:])

private func startTeam(_ name: String, standups count: Int) async throws {
  // NB: The server lives as long as the case: its setup starts it, its teardown stops it.
  let server = try TestServer.start()
  try await server.makeTeam("bench", members: ["alice": "alice-secret", "bob": "bob-secret"])
  let team = Team(
    server: server, sender: try await .joining(server, as: "alice"),
    receiver: try await .joining(server, as: "bob"))
  var standups = standupsToStore(count: count)
  standups[id: standups[0].id] = nil
  standups.insert(.mock, at: 0)
  try await team.sender.database.apply(.added(standups.elements))
  try await team.sender.database.share(Array(standups.ids))
  _ = try await team.sender.engine.syncOnce()
  _ = try await team.receiver.engine.syncOnce()
  teams.withLock { $0[name] = team }
}

private func stopTeam(_ name: String) async {
  guard let team = teams.withLock({ $0.removeValue(forKey: name) }) else { return }
  team.server.stop()
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
