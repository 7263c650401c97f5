import Foundation
import StorageTestSupport

/// Who runs the server's commands: the tests' own user, or `postgres` when the tests run as root.
struct ServerAccount {
  var prefix: [String]
  var owner: (uid: uid_t, gid: gid_t)?

  /// The account, its commands run in network namespace `namespace` when one is named.
  static func current(in namespace: String?) throws -> ServerAccount {
    var account = try current()
    if let namespace {
      account.prefix = ["/usr/sbin/ip", "netns", "exec", namespace] + account.prefix
    }
    return account
  }

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

  func run(_ program: String, _ arguments: [String]) async throws -> CommandOutput {
    try await onAThreadOfItsOwn { try runOnThisThread(program, arguments) }
  }

  /// ``run(_:_:)``, blocking the calling thread: only where nothing can wait (the process's exit).
  func runOnThisThread(_ program: String, _ arguments: [String]) throws -> CommandOutput {
    if prefix.isEmpty { return try runProgramOnThisThread(program, arguments) }
    return try runProgramOnThisThread(
      prefix[0], Array(prefix.dropFirst()) + [program] + arguments)
  }

  func mustRun(_ program: String, _ arguments: [String]) async throws {
    let output = try await run(program, arguments)
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

/// Runs a program to its end, on a thread of its own (`onAThreadOfItsOwn`), so that the wait
/// holds none of the threads the tests' tasks run on.
///
/// ```swift
/// let output = try await runProgram("/usr/bin/env", ["openssl", "version"])
/// ```
public func runProgram(
  _ program: String, _ arguments: [String], environment: [String: String] = [:]
) async throws -> CommandOutput {
  try await onAThreadOfItsOwn {
    try runProgramOnThisThread(program, arguments, environment: environment)
  }
}

/// Runs a program to its end, blocking the calling thread. Its output goes to files, not pipes:
/// `pg_ctl start` leaves a server running that inherits them, and a pipe a server holds would
/// never reach its end. It is spawned and waited for with ``spawn(_:environment:settingUp:)``
/// and `waitpid`, so that nothing depends on another thread noticing the child's exit. Only
/// where nothing can wait (a test's `.enabled(if:)` condition); elsewhere,
/// ``runProgram(_:_:environment:)``.
func runProgramOnThisThread(
  _ program: String, _ arguments: [String], environment: [String: String] = [:]
) throws -> CommandOutput {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("teamsync-run-\(UUID().uuidString.prefix(8))")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(at: folder) }
  let outputFile = folder.appendingPathComponent("out").path
  let errorFile = folder.appendingPathComponent("err").path

  // NB: Run from `/`: the server's account may not enter the tests' folder, and initdb looks
  // where it is. Spawned with nothing of this process but what it is given (``spawn``): a
  // server `pg_ctl start` leaves running would hold another test's pipe open for its life.
  let pid = try spawn(
    ["/bin/sh", "-c", "cd / && exec \"$@\"", "sh", program] + arguments,
    environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
  ) { actions in
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  }
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
func freeLoopbackPort() throws -> Int {
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

extension TestServer {
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
