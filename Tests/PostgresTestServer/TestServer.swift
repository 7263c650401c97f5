import Foundation
public import PostgresNIO
import TeamSync

/// A PostgreSQL server (15 where installed) for one test, with a database and login roles of the
/// test's own, all removed by ``withTestServer(_:)``.
///
/// The server is the one `.ci/run` started for the whole run when it names it in
/// `STANDUPS_TEST_POSTGRES_PORT` (and the administrator's password in
/// `STANDUPS_TEST_POSTGRES_PASSWORD`); otherwise, as under a plain `swift test`, a throwaway
/// cluster the run's tests share (``runCluster()``): its own folder, socket and loopback port,
/// password logins (SCRAM), stopped when the tests' process exits.
/// A test that stops the server asks for a cluster of its own with ``withOwnServer(_:)``, so that
/// it stops nobody else's.
///
/// Roles belong to the whole cluster, not to a database, so a test names its members by their
/// first names (`"alice"`) and the server gives each test's roles a suffix of the test's own
/// (``role(_:)``): tests running at once on one server never meet.
///
/// initdb refuses to run as root, so the server's commands run as the unprivileged `postgres`
/// account when the tests run as root. Where no server can be started, the test fails with a
/// sentence saying why: a test of row-level security that passed without a server would
/// prove nothing.
public struct TestServer: Sendable {
  /// The superuser initdb makes, who owns the cluster.
  public static let administrator = "standups_admin"

  /// The administrator's password.
  public let administratorPassword: String
  /// The test's own folder, for its machines' data and HOMEs, removed when the test ends.
  public let folder: String
  /// The loopback port the server listens on.
  public let port: Int
  /// The test's own database.
  public let database: String
  /// What this test's role names end with.
  private let suffix: String
  /// The data folder of the cluster this test started and stops, or nil when it is the run's.
  let ownCluster: String?
  /// The address clients reach the server at: loopback, or the administrator's link into the
  /// network namespace the server runs in (``withOwnServer(in:_:)``).
  public var host = "127.0.0.1"
  /// The network the server runs in, when it has one of its own.
  var network: TestNetwork?

  /// The administrator's URL, through loopback TCP, to the test's database.
  public var administratorURL: String {
    "postgresql://\(Self.administrator)@\(host):\(port)/\(database)?sslmode=disable"
  }

  /// The login role this test's member `name` is on the server: `name` and the test's suffix.
  public func role(_ name: String) -> String { "\(name)_\(suffix)" }

  /// A member's URL, through loopback TCP (or `link`, when the server has a network of its
  /// own), to the test's database.
  public func url(for member: String, over link: TestNetwork.Link? = nil) -> String {
    "postgresql://\(role(member))@\(link?.serverAddress ?? host):\(port)/\(database)"
      + "?sslmode=disable"
  }

  /// Creates the login role of member `name`, with a password.
  public func createRole(_ name: String, password: String) async throws {
    try await administer("CREATE ROLE \"\(role(name))\" LOGIN PASSWORD '\(password)'")
  }

  /// Creates login roles with passwords, sets the schema up, and makes the roles members of
  /// `team`.
  public func makeTeam(_ team: String, members: [String: String]) async throws {
    for (name, password) in members.sorted(by: { $0.key < $1.key }) {
      try await createRole(name, password: password)
    }
    try await withAdministrator { connection in
      try await TeamSchema.setUp(on: connection, logger: Self.logger)
      try await TeamSchema.addMembers(
        team: team, roles: members.keys.sorted().map(role), on: connection, logger: Self.logger)
    }
  }

  /// A logger that reports only errors, for the tests' own connections.
  public static let logger = {
    var logger = Logger(label: "TeamSyncTests")
    logger.logLevel = .error
    return logger
  }()

  /// Runs `body` with a database and roles of its own on the run's server (`.ci/run`'s, or the
  /// one the run's tests share); then removes them.
  public static func withTestServer<Result: Sendable>(
    _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    let server = try await start()
    return try await server.stoppingAfter(body)
  }

  /// Runs `body` with a new cluster of its own, which it may stop and start
  /// (``stopImmediately()``, ``startAgain()``); then stops the cluster and removes its folder.
  public static func withOwnServer<Result: Sendable>(
    _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    let server = try await startOwnCluster()
    return try await server.stoppingAfter(body)
  }

  /// Runs `body` with a cluster of its own that runs in `network`'s namespace, reached over
  /// its links: the administrator over the first, members over any (``url(for:over:)``).
  public static func withOwnServer<Result: Sendable>(
    in network: TestNetwork, _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    let server = try await startOwnCluster(in: network)
    return try await server.stoppingAfter(body)
  }

  /// Runs `body`, then ``stop()``, whether `body` throws or not: a `defer` cannot wait.
  private func stoppingAfter<Result: Sendable>(
    _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    do {
      let result = try await body(self)
      await stop()
      return result
    } catch {
      await stop()
      throw error
    }
  }

  /// Connects to the test's database as the administrator, through the app's own connection
  /// code.
  public func withAdministrator<Result: Sendable>(
    _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let description = try ConnectionDescription(url: administratorURL, environment: [:])
    let password = try description.password(
      environment: ["PGPASSWORD": administratorPassword], homeFolder: folder)
    return try await description.withConnection(password: password, logger: Self.logger, body)
  }

  /// Connects to the test's database as the administrator for a `body` that stops the server
  /// under its own connection: unlike ``withAdministrator(_:)``, the call waits for `body` to
  /// end whatever happens to the connection.
  public func withAdministratorWhileStopping(
    _ body: (PostgresConnection) async throws -> Void
  ) async throws {
    let description = try ConnectionDescription(url: administratorURL, environment: [:])
    let connection = try await PostgresConnection.connect(
      configuration: description.connectionConfiguration(password: administratorPassword), id: 1,
      logger: Self.logger)
    do {
      try await body(connection)
      try? await connection.close()
    } catch {
      try? await connection.close()
      throw error
    }
  }

  /// Runs hand-written SQL through `psql` in the test's database as the role of member `name`,
  /// the way a member could without the app: in serializable transactions, which the server
  /// requires of a change, as its refusal tells a member who tries otherwise.
  public func psql(_ sql: String, as name: String, password: String) async throws
    -> CommandOutput
  {
    try await psql(
      sql, role: role(name), password: password, database: database,
      options: "-c default_transaction_isolation=serializable")
  }

  /// Runs SQL through `psql` as the administrator in the test's database, and fails unless it
  /// succeeds.
  @discardableResult
  public func administer(_ sql: String) async throws -> String {
    try await administer(sql, in: database)
  }

  /// Backs the test's database up with `pg_dump`, as the server's owner would, into a file in
  /// the test's folder; returns its path.
  public func backUp() async throws -> String {
    let file = "\(folder)/backup-\(UUID().uuidString.prefix(8)).dump"
    try await runAsAdministrator(
      "pg_dump", ["--format=custom", "--file=\(file)", "--dbname=\(database)"])
    return file
  }

  /// Puts the team schema back as `backUp()` saved it, with `pg_restore`: everything written
  /// to the schema since is gone, as after a restore from an older backup.
  public func restore(from file: String) async throws {
    try await administer("DROP SCHEMA standups_team CASCADE")
    try await runAsAdministrator("pg_restore", ["--exit-on-error", "--dbname=\(database)", file])
  }

  /// Runs one of PostgreSQL's client programs as the administrator.
  private func runAsAdministrator(_ program: String, _ arguments: [String]) async throws {
    let output = try await runProgram(
      Self.binary(program),
      ["-h", host, "-p", String(port), "-U", Self.administrator] + arguments,
      environment: ["PGPASSWORD": administratorPassword, "PGCONNECT_TIMEOUT": "10"])
    guard output.status == 0 else {
      throw TestServerError("\(program) exited \(output.status): \(output.error)")
    }
  }

  /// Starts a server for one test: a database and roles on the run's server (`.ci/run`'s, or one
  /// the run's tests share), which ``stop()`` removes. Tests use ``withTestServer(_:)``.
  public static func start() async throws -> TestServer {
    let environment = ProcessInfo.processInfo.environment
    let (port, password): (Int, String)
    if let named = environment["STANDUPS_TEST_POSTGRES_PORT"] {
      guard let number = Int(named), let given = environment["STANDUPS_TEST_POSTGRES_PASSWORD"]
      else {
        throw TestServerError(
          "STANDUPS_TEST_POSTGRES_PORT is \"\(named)\": it must be the port of the run's server, "
            + "with its administrator's password in STANDUPS_TEST_POSTGRES_PASSWORD.")
      }
      (port, password) = (number, given)
    } else {
      (port, password) = try await runCluster()
    }
    let folder = try makeFolder()
    let server = TestServer(
      administratorPassword: password, folder: folder.path, port: port,
      database: "standups_\(folder.suffix)", suffix: folder.suffix, ownCluster: nil)
    do {
      try await server.administer("CREATE DATABASE \"\(server.database)\"", in: "postgres")
    } catch {
      try? FileManager.default.removeItem(atPath: folder.path)
      throw error
    }
    return server
  }

  /// Starts a new cluster of its own for one test (or for the run's tests, ``runCluster()``),
  /// with `settings` (`name=value`) beside the defaults.
  static func startOwnCluster(
    in network: TestNetwork? = nil, settings: [String] = []
  ) async throws -> TestServer {
    let account = try ServerAccount.current()
    let folder = try makeFolder()
    let password = "admin-secret"
    let passwordFile = "\(folder.path)/password"
    try "\(password)\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
    try account.hand(folder.path, passwordFile)

    let data = "\(folder.path)/data"
    try await account.mustRun(
      binary("initdb"),
      [
        "-D", data, "-U", administrator, "--auth=scram-sha-256", "--pwfile=\(passwordFile)",
        "--no-sync", "--encoding=UTF8", "--locale=C",
      ])
    if !settings.isEmpty {
      let configuration = try FileHandle(
        forWritingTo: URL(fileURLWithPath: "\(data)/postgresql.conf"))
      try configuration.seekToEnd()
      try configuration.write(contentsOf: Data(settings.map { "\($0)\n" }.joined().utf8))
      try configuration.close()
    }
    if let network {
      let rules = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(data)/pg_hba.conf"))
      try rules.seekToEnd()
      try rules.write(contentsOf: Data("host all all \(network.clients) scram-sha-256\n".utf8))
      try rules.close()
    }
    // NB: A port free when asked may be taken before the server binds it (by a client's
    // connection: the kernel gives both from one range), so a start that fails tries another.
    var failures: [String] = []
    for _ in 1...5 {
      var server = TestServer(
        administratorPassword: password, folder: folder.path, port: try freeLoopbackPort(),
        database: "standups_\(folder.suffix)", suffix: folder.suffix, ownCluster: data)
      if let network {
        server.host = network.links[0].serverAddress
        server.network = network
      }
      do {
        try await server.startAgain()
      } catch {
        let log = (try? String(contentsOfFile: "\(folder.path)/server.log", encoding: .utf8)) ?? ""
        failures.append("\(error)\nserver log:\n\(log)")
        continue
      }
      do {
        try await server.administer("CREATE DATABASE \"\(server.database)\"", in: "postgres")
      } catch {
        await server.stop()
        throw error
      }
      return server
    }
    try? FileManager.default.removeItem(atPath: folder.path)
    throw TestServerError(failures.joined(separator: "\n"))
  }

  /// Stops the server at once, as a crash or a pulled plug would (`-m immediate`). Only a
  /// cluster of the test's own (``withOwnServer(_:)``) may be stopped.
  public func stopImmediately() async throws {
    try await ServerAccount.current().mustRun(
      Self.binary("pg_ctl"), ["-D", try ownData(), "-m", "immediate", "-w", "stop"])
  }

  /// Stops (`SIGSTOP`) or lets go on (`SIGCONT`) every process of the test's own cluster, as a
  /// server that hangs would: its host still acknowledges every packet, so the connections stay
  /// up and nothing answers on them.
  public func signalProcesses(_ signal: Int32) throws {
    let data = try ownData()
    let pidFile = try String(contentsOfFile: "\(data)/postmaster.pid", encoding: .utf8)
    guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ pid_t($0) }) else {
      throw TestServerError("\(data)/postmaster.pid names no process")
    }
    var processes = [postmaster]
    for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1,
        pid_t(fields[1]) == postmaster
      else { continue }
      processes.append(pid)
    }
    // NB: A backend that ended since /proc was read (ESRCH) is no process left to stop.
    for pid in processes where kill(pid, signal) != 0 && errno != ESRCH {
      throw TestServerError("kill(\(pid), \(signal)) failed: errno \(errno)")
    }
  }

  /// Starts the test's own cluster again, on the same port.
  public func startAgain() async throws {
    let addresses = ["127.0.0.1"] + (network?.links.map(\.serverAddress) ?? [])
    try await ServerAccount.current(in: network?.namespace).mustRun(
      Self.binary("pg_ctl"),
      [
        "-D", try ownData(), "-l", "\(folder)/server.log", "-w", "-t", "60", "-o",
        "-k \(folder) -p \(port) -c listen_addresses=\(addresses.joined(separator: ",")) "
          + "-c fsync=off",
        "start",
      ])
  }

  private func ownData() throws -> String {
    guard let ownCluster else {
      throw TestServerError(
        "This test's server is the one the whole run shares: a test that stops it runs in "
          + "TestServer.withOwnServer.")
    }
    return ownCluster
  }

  /// Removes what the test made: its cluster, or its database and roles on the run's server;
  /// and its folder.
  public func stop() async {
    if let ownCluster, let account = try? ServerAccount.current() {
      _ = try? await account.run(
        Self.binary("pg_ctl"), ["-D", ownCluster, "-m", "fast", "-w", "stop"])
    } else {
      _ = try? await administer(
        "DROP DATABASE IF EXISTS \"\(database)\" WITH (FORCE)", in: "postgres")
      _ = try? await administer(
        """
        DO $$ DECLARE name text; BEGIN
          FOR name IN SELECT rolname FROM pg_roles WHERE rolname LIKE '%\\_\(suffix)' LOOP
            EXECUTE format('DROP ROLE %I', name);
          END LOOP;
        END $$
        """, in: "postgres")
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  private func psql(
    _ sql: String, role: String, password: String, database: String, options: String = ""
  ) async throws -> CommandOutput {
    try await runProgram(
      Self.binary("psql"),
      [
        "-h", host, "-p", String(port), "-U", role, "-d", database, "-X", "-A", "-t",
        "-v", "ON_ERROR_STOP=1", "-c", sql,
      ],
      environment: ["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "10", "PGOPTIONS": options]
    )
  }

  @discardableResult
  private func administer(_ sql: String, in database: String) async throws -> String {
    let output = try await psql(
      sql, role: Self.administrator, password: administratorPassword, database: database)
    guard output.status == 0 else {
      throw TestServerError("psql as the administrator failed on \(sql): \(output.error)")
    }
    return output.standardOutput
  }

  /// A new folder of the test's own in the temporary folder, and the suffix its names share.
  private static func makeFolder() throws -> (path: String, suffix: String) {
    let suffix = UUID().uuidString.prefix(8).lowercased()
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("teamsync-\(suffix)").path
    try FileManager.default.createDirectory(
      atPath: path, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o700])
    return (path, suffix)
  }
}
