import Foundation
public import PostgresNIO
import TeamSync

/// A throwaway PostgreSQL cluster (15 where installed) for one test: its own folder, socket and loopback port,
/// password logins (SCRAM), stopped and removed by ``withTestServer(_:)``.
///
/// initdb refuses to run as root, so the server's commands run as the unprivileged `postgres`
/// account when the tests run as root. Where no server can be started, the test fails with a
/// sentence saying why: a test of row-level security that passed without a server would
/// prove nothing.
public struct TestServer: Sendable {
  /// The superuser initdb makes, who owns the cluster.
  public static let administrator = "standups_admin"
  /// The administrator's password.
  public static let administratorPassword = "admin-secret"

  /// The cluster's folder: its data, its socket, its log.
  public let folder: String
  /// The loopback port it listens on.
  public let port: Int

  /// The administrator's URL, through loopback TCP.
  public var administratorURL: String {
    "postgresql://\(Self.administrator)@127.0.0.1:\(port)/postgres?sslmode=disable"
  }

  /// A member's URL, through loopback TCP.
  public func url(for role: String) -> String {
    "postgresql://\(role)@127.0.0.1:\(port)/postgres?sslmode=disable"
  }

  /// Creates login roles with passwords, sets the schema up, and makes the roles members of
  /// `team`.
  public func makeTeam(_ team: String, members: [String: String]) async throws {
    for (role, password) in members.sorted(by: { $0.key < $1.key }) {
      try administer("CREATE ROLE \"\(role)\" LOGIN PASSWORD '\(password)'")
    }
    try await withAdministrator { connection in
      try await TeamSchema.setUp(on: connection, logger: Self.logger)
      try await TeamSchema.addMembers(
        team: team, roles: members.keys.sorted(), on: connection, logger: Self.logger)
    }
  }

  /// A logger that reports only errors, for the tests' own connections.
  public static let logger = {
    var logger = Logger(label: "TeamSyncTests")
    logger.logLevel = .error
    return logger
  }()

  /// Runs `body` with a new server, then stops the server and removes its folder.
  public static func withTestServer<Result: Sendable>(
    _ body: (TestServer) async throws -> Result
  ) async throws -> Result {
    let server = try start()
    defer { server.stop() }
    return try await body(server)
  }

  /// Connects to the server as the administrator, through the app's own connection code.
  public func withAdministrator<Result: Sendable>(
    _ body: (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let description = try ConnectionDescription(url: administratorURL, environment: [:])
    let password = try description.password(
      environment: ["PGPASSWORD": Self.administratorPassword], homeFolder: folder)
    return try await description.withConnection(password: password, logger: Self.logger, body)
  }

  /// Runs hand-written SQL through `psql` as `role`, the way a member could without the app.
  public func psql(_ sql: String, as role: String, password: String) throws -> CommandOutput {
    try runProgram(
      Self.binary("psql"),
      [
        "-h", "127.0.0.1", "-p", String(port), "-U", role, "-d", "postgres", "-X", "-A", "-t",
        "-v", "ON_ERROR_STOP=1", "-c", sql,
      ],
      environment: ["PGPASSWORD": password, "PGCONNECT_TIMEOUT": "10"]
    )
  }

  /// Runs SQL through `psql` as the administrator, and fails unless it succeeds.
  @discardableResult
  public func administer(_ sql: String) throws -> String {
    let output = try psql(sql, as: Self.administrator, password: Self.administratorPassword)
    guard output.status == 0 else {
      throw TestServerError("psql as the administrator failed on \(sql): \(output.error)")
    }
    return output.standardOutput
  }

  /// Starts a new server; ``stop()`` stops it and removes its folder. Tests use
  /// ``withTestServer(_:)``, which does both.
  public static func start() throws -> TestServer {
    let account = try ServerAccount.current()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("teamsync-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(
      atPath: folder, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o700])
    let passwordFile = "\(folder)/password"
    try "\(administratorPassword)\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)
    try account.hand(folder, passwordFile)

    let data = "\(folder)/data"
    try account.mustRun(
      binary("initdb"),
      [
        "-D", data, "-U", administrator, "--auth=scram-sha-256", "--pwfile=\(passwordFile)",
        "--no-sync", "--encoding=UTF8", "--locale=C",
      ])
    let port = try freeLoopbackPort()
    let server = TestServer(folder: folder, port: port)
    do {
      try account.mustRun(
        binary("pg_ctl"),
        [
          "-D", data, "-l", "\(folder)/server.log", "-w", "-t", "60", "-o",
          "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
        ])
    } catch {
      let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
      try? FileManager.default.removeItem(atPath: folder)
      throw TestServerError("\(error)\nserver log:\n\(log)")
    }
    return server
  }

  /// Stops the server at once, as a crash or a pulled plug would (`-m immediate`).
  public func stopImmediately() throws {
    try ServerAccount.current().mustRun(
      Self.binary("pg_ctl"), ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
  }

  /// Starts the server again, on the same port.
  public func startAgain() throws {
    try ServerAccount.current().mustRun(
      Self.binary("pg_ctl"),
      [
        "-D", "\(folder)/data", "-l", "\(folder)/server.log", "-w", "-t", "60", "-o",
        "-k \(folder) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
      ])
  }

  /// Stops the server and removes its folder.
  public func stop() {
    if let account = try? ServerAccount.current() {
      _ = try? account.run(
        Self.binary("pg_ctl"), ["-D", "\(folder)/data", "-m", "fast", "-w", "stop"])
    }
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// A PostgreSQL program: version 15's (the release the team schema is written for) where
  /// Debian installs it, else the newest version there, else Homebrew's postgresql@15, else
  /// /usr/local/bin, else the PATH.
  public static func binary(_ name: String) throws -> String {
    let versions =
      ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
      .sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    let candidates =
      ["/usr/lib/postgresql/15/bin/\(name)"]
      + versions.map { "/usr/lib/postgresql/\($0)/bin/\(name)" }
      + [
        "/opt/homebrew/opt/postgresql@15/bin/\(name)", "/usr/local/opt/postgresql@15/bin/\(name)",
        "/usr/local/bin/\(name)",
      ] + path.map { "\($0)/\(name)" }
    guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:))
    else {
      throw TestServerError(
        "No \(name) in /usr/lib/postgresql/*/bin, /usr/local/bin or the PATH: the tests of the "
          + "team's server need PostgreSQL's programs (Debian: apt-get install postgresql).")
    }
    return found
  }
}

/// Who runs the server's commands: the tests' own user, or `postgres` when the tests run as root.
private struct ServerAccount {
  var prefix: [String]
  var owner: (uid: uid_t, gid: gid_t)?

  static func current() throws -> ServerAccount {
    let uid = geteuid()
    if uid != 0 {
      // NB: An unprivileged user can run initdb itself; only root is refused.
      return ServerAccount(prefix: [], owner: nil)
    }
    guard let entry = getpwnam("postgres") else {
      throw TestServerError(
        "The tests run as root and there is no postgres account: initdb refuses root, so no "
          + "PostgreSQL server can be started. Create the account (useradd --system postgres) "
          + "or run the tests as an unprivileged user.")
    }
    return ServerAccount(
      prefix: ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"],
      owner: (entry.pointee.pw_uid, entry.pointee.pw_gid))
  }

  /// Gives the server's account the files it must own.
  func hand(_ paths: String...) throws {
    guard let owner else { return }
    for path in paths where chown(path, owner.uid, owner.gid) != 0 {
      throw TestServerError("chown \(path) to postgres failed: errno \(errno)")
    }
  }

  func run(_ program: String, _ arguments: [String]) throws -> CommandOutput {
    if prefix.isEmpty { return try runProgram(program, arguments) }
    return try runProgram(prefix[0], Array(prefix.dropFirst()) + [program] + arguments)
  }

  func mustRun(_ program: String, _ arguments: [String]) throws {
    let output = try run(program, arguments)
    guard output.status == 0 else {
      throw TestServerError(
        "\(program) \(arguments.joined(separator: " ")) exited \(output.status): "
          + output.error + output.standardOutput)
    }
  }
}

/// What a program printed, and how it ended.
public struct CommandOutput: Sendable {
  /// Its exit status (128 + the signal when a signal ended it).
  public var status: Int32
  /// What it wrote to standard output.
  public var standardOutput: String
  /// What it wrote to standard error.
  public var error: String
}

/// Why a test server or a program could not be run, in a sentence.
public struct TestServerError: Error, CustomStringConvertible {
  /// The sentence.
  public var description: String
  /// A failure with this sentence.
  public init(_ description: String) { self.description = description }
}

/// Runs a program to its end. Its output goes to files, not pipes: `pg_ctl start` leaves a
/// server running that inherits them, and a pipe a server holds would never reach its end. It
/// is spawned and waited for with `posix_spawn` and `waitpid`, in the calling thread, so that
/// nothing depends on another thread noticing the child's exit.
public func runProgram(
  _ program: String, _ arguments: [String], environment: [String: String] = [:]
) throws -> CommandOutput {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("teamsync-run-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(at: folder) }
  let outputFile = folder.appendingPathComponent("out").path
  let errorFile = folder.appendingPathComponent("err").path

  #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t?
  #else
    var actions = posix_spawn_file_actions_t()
  #endif
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

  let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    .map { "\($0.key)=\($0.value)" }
  // NB: Run from `/`: the server's account may not enter the tests' folder, and initdb looks
  // where it is.
  let argv =
    (["/bin/sh", "-c", "cd / && exec \"$@\"", "sh", program] + arguments).map { strdup($0) }
    + [nil]
  let envp = variables.map { strdup($0) } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
  guard spawned == 0 else { throw TestServerError("posix_spawn \(program) failed: \(spawned)") }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 {
    guard errno == EINTR else { throw TestServerError("waitpid failed: errno \(errno)") }
  }
  let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  return CommandOutput(
    status: exitStatus,
    standardOutput: (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? "",
    error: (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
}

/// A loopback port that nothing listens on now: the kernel's pick for a socket bound to port 0.
private func freeLoopbackPort() throws -> Int {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
  defer { close(descriptor) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = 0
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
      bind(descriptor, socketAddress, length) == 0
        && getsockname(descriptor, socketAddress, &length) == 0
    }
  }
  guard bound else { throw TestServerError("binding a loopback port failed: errno \(errno)") }
  return Int(UInt16(bigEndian: address.sin_port))
}
