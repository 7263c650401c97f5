import Benchmark
import Foundation
import Models
import PostgresNIO
import PostgresTestServer
import StorageClient
import Synchronization
import TeamSync

// What a whole team costs its server: fifty machines in this process, each running its engine
// as the app does, five members among them, every machine editing at once until every machine
// has every change. Besides the time, each iteration records the CPU time the members' server
// processes spent (read from /proc, the server being on this machine) and this process's.

func teamBenchmarks() {
  Benchmark("Sync.Team/machines=\(Crowd.size)", configuration: crowdConfiguration()) {
    benchmark in
    guard let crowd = crowds.withLock({ $0.first }) else { return }
    let running = crowd.engines.map { engine in
      Task { await engine.run(onStatus: { _ in }, onPulled: { _ in }) }
    }
    defer {
      for engine in running { engine.cancel() }
    }
    try await crowd.waitUntilConverged()
    for iteration in benchmark.scaledIterations {
      let serverBefore = try await crowd.serverCPU()
      let hereBefore = processCPU()
      benchmark.startMeasurement()
      try await crowd.edit(round: iteration)
      try await crowd.waitUntilConverged()
      benchmark.stopMeasurement()
      benchmark.measurement(serverCPU, try await crowd.serverCPU() - serverBefore)
      benchmark.measurement(engineCPU, processCPU() - hereBefore)
    }
  } setup: {
    let crowd = try await Crowd.start()
    crowds.withLock { $0 = [crowd] }
  } teardown: {
    for crowd in crowds.withLock({ $0 }) { await crowd.stop() }
    crowds.withLock { $0 = [] }
  }
}

/// The CPU time, in milliseconds, the team's server processes spent serving the machines.
private let serverCPU = BenchmarkMetric.custom("server CPU (ms)", useScalingFactor: false)
/// The CPU time, in milliseconds, this process spent: the fifty engines and databases.
private let engineCPU = BenchmarkMetric.custom("engines' CPU (ms)", useScalingFactor: false)

/// Fifty machines of five members on one server: each shares a standup of its own, and all
/// share three common ones.
private struct Crowd: Sendable {
  static let size = 50
  static let members = 5
  /// Changes each machine makes in an iteration: half to the common standups, half to its own.
  static let changesEach =
    ProcessInfo.processInfo.environment["STANDUPS_BENCHMARK_SMOKE"] != nil ? 4 : 100

  var server: TestServer
  var folders: [URL]
  var databases: [StandupsDatabase]
  var engines: [TeamSyncEngine]
  var common: [Standup.ID]
  var own: [Standup.ID]

  static func start() async throws -> Crowd {
    let server = try await TestServer.start()
    let passwords = (1...members).reduce(into: [String: String]()) { passwords, index in
      passwords["member\(index)"] = "member\(index)-secret"
    }
    try await server.makeTeam("crowd", members: passwords)
    var crowd = Crowd(server: server, folders: [], databases: [], engines: [], common: [], own: [])
    for index in 0..<size {
      let member = "member\(index % members + 1)"
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("standups-crowd-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let database = StandupsDatabase(path: folder.appendingPathComponent("s.sqlite").path)
      _ = try await database.load()
      let membership = try await database.joinTeam(
        server: server.url(for: member), team: "crowd", machine: UUID())
      let own = standup("Machine \(index)")
      try await database.apply(.added([own]))
      try await database.share([own.id], with: membership.id)
      crowd.folders.append(folder)
      crowd.databases.append(database)
      crowd.own.append(own.id)
      crowd.engines.append(
        TeamSyncEngine(
          database: database, membership: membership,
          environment: ["PGPASSWORD": passwords[member]!]))
    }
    let common = (0..<3).map { standup("Common \($0)") }
    try await crowd.databases[0].apply(.added(common))
    try await crowd.databases[0].share(
      common.map(\.id), with: crowd.engines[0].membership.id)
    crowd.common = common.map(\.id)
    return crowd
  }

  private static func standup(_ title: String) -> Standup {
    Standup(
      id: Standup.ID(UUID()), attendees: [], duration: .seconds(60), meetings: [],
      theme: .orange, title: title)
  }

  /// Every machine makes its changes, all at once.
  func edit(round: Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, database) in databases.enumerated() {
        group.addTask {
          for change in 0..<Self.changesEach {
            let target =
              change.isMultiple(of: 2) ? common[(index + change) % common.count] : own[index]
            try await database.apply(
              .edited(target, StandupEdit(title: "Round \(round), change \(change) of \(index)")))
          }
        }
      }
      try await group.waitForAll()
    }
  }

  /// Waits until every machine is connected, has pushed everything, and has applied the team's
  /// last change.
  func waitUntilConverged() async throws {
    try await server.withAdministrator { server in
      while true {
        let (last, connections) = try await teamState(server)
        if connections == Self.size, try await allApplied(through: last) { return }
        try await Task.sleep(for: .milliseconds(20))
      }
    }
  }

  private func allApplied(through last: Int64) async throws -> Bool {
    for database in databases {
      guard try await database.waitingTeamChangeCount() == 0,
        (try await database.teamMemberships().first?.lastSequence ?? 0) >= last
      else { return false }
    }
    return true
  }

  /// The team's last change, and how many machines are connected.
  private func teamState(_ server: PostgresConnection) async throws -> (Int64, Int) {
    let rows = try await server.query(
      """
      SELECT (SELECT COALESCE(max(sequence), 0) FROM standups_team.changes WHERE team = 'crowd'),
        (SELECT count(*)::integer FROM pg_stat_activity
         WHERE datname = current_database() AND usename LIKE 'member%')
      """, logger: TestServer.logger)
    var state: (Int64, Int) = (0, 0)
    for try await (last, connections) in rows.decode((Int64, Int).self) {
      state = (last, connections)
    }
    return state
  }

  /// The CPU time the members' server processes have spent, in milliseconds.
  func serverCPU() async throws -> Int {
    try await server.withAdministrator { server in
      let rows = try await server.query(
        """
        SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND usename LIKE 'member%'
        """, logger: TestServer.logger)
      var milliseconds = 0
      for try await pid in rows.decode(Int32.self) {
        milliseconds += cpuMilliseconds(ofProcess: pid)
      }
      return milliseconds
    }
  }

  func stop() async {
    await server.stop()
    for folder in folders { try? FileManager.default.removeItem(at: folder) }
  }
}

private let crowds = Mutex<[Crowd]>([])

/// A process's user and system time so far, from /proc/PID/stat (fields 14 and 15, in clock
/// ticks); 0 when it has ended.
private func cpuMilliseconds(ofProcess pid: Int32) -> Int {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let afterName = stat.lastIndex(of: ")")
  else { return 0 }
  // NB: Fields after the name, which may hold spaces: the state is field 3, so utime is the
  // twelfth of these and stime the thirteenth.
  let fields = stat[stat.index(after: afterName)...].split(separator: " ")
  guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
    return 0
  }
  return (user + system) * 1000 / sysconf(Int32(_SC_CLK_TCK))
}

/// This process's user and system time so far, in milliseconds.
private func processCPU() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  let user = Int(usage.ru_utime.tv_sec) * 1000 + Int(usage.ru_utime.tv_usec) / 1000
  let system = Int(usage.ru_stime.tv_sec) * 1000 + Int(usage.ru_stime.tv_usec) / 1000
  return user + system
}

/// A few iterations, each timed whole: a round of every machine's changes until all converge.
private func crowdConfiguration() -> Benchmark.Configuration {
  var configuration = configuration()
  configuration.metrics = [.wallClock, serverCPU, engineCPU]
  configuration.thresholds = [:]
  configuration.warmupIterations = 0
  configuration.maxIterations = min(configuration.maxIterations, 3)
  configuration.maxDuration = .seconds(300)
  return configuration
}
