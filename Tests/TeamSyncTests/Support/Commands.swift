import Foundation
import Models
import PostgresTestServer

/// A HOME of its own for one machine, with the member's password in `PGPASSWORD`.
struct Home {
  let folder: String
  let environment: [String: String]

  /// A HOME inside `parent`: the test's folder (``TestServer/folder``), removed when the test
  /// ends, or one the test removes.
  init(password: String, in parent: String) throws {
    folder =
      URL(fileURLWithPath: parent)
      .appendingPathComponent("home-\(UUID().uuidString.prefix(8))").path
    try FileManager.default.createDirectory(
      atPath: "\(folder)/tmp", withIntermediateDirectories: true)
    // NB: A temporary folder of its own too: the machine's is shared with every test running.
    environment = [
      "HOME": folder, "PGPASSWORD": password, "XDG_DATA_HOME": "", "XDG_STATE_HOME": "",
      "TMPDIR": "\(folder)/tmp",
    ]
  }

  var database: String { "\(folder)/.local/share/standups/standups.sqlite" }

  /// Where a started command's standard error goes.
  var errorFile: String { "\(folder)/error.txt" }

  func write(standups: [Standup]) throws -> String {
    let path = "\(folder)/standups.json"
    try StandupsFile(standups: .init(uniqueElements: standups)).encoded()
      .write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// An executable of the package's beside the test binary: `standups`, or `TeamMachine`.
func executable(_ name: String) -> String {
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
    directory = directory.deletingLastPathComponent()
  }
  return ".build/debug/\(name)"
}

/// Runs the `standups` executable to its end, as a user would.
func standups(_ arguments: [String], _ environment: [String: String]) async throws
  -> CommandOutput
{
  try await runProgram(executable("standups"), arguments, environment: environment)
}

/// Starts the `standups` executable, its standard error in `errorFile` when one is given.
func start(
  _ arguments: [String], _ environment: [String: String], errorFile: String? = nil
) throws -> Process {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable("standups"))
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  process.standardOutput = FileHandle.nullDevice
  if let errorFile {
    guard FileManager.default.createFile(atPath: errorFile, contents: nil) else {
      throw TestServerError("\(errorFile) could not be made")
    }
    process.standardError = FileHandle(forWritingAtPath: errorFile)
  } else {
    process.standardError = FileHandle.nullDevice
  }
  try process.run()
  return process
}

/// Whether `process` ends within `seconds`; one that does not is killed. A guard against a
/// hang, not a measure of time: a process that works ends long before. It looks every 20
/// milliseconds, suspended in between, so that no other test's task waits on its thread.
func endsWithin(seconds: Int, _ process: Process) async -> Bool {
  for _ in 0..<(seconds * 50) where process.isRunning {
    try? await Task.sleep(for: .milliseconds(20))
  }
  guard process.isRunning else { return true }
  kill(process.processIdentifier, SIGKILL)
  for _ in 0..<250 where process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
  return false
}
