import Foundation
import IdentifiedCollections
import Models
import StorageTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The `standups` executable that `swift build` put beside this test binary.
let standupsExecutable: URL = {
  let environment = ProcessInfo.processInfo.environment
  if let path = environment["STANDUPS_EXECUTABLE"] {
    return URL(fileURLWithPath: path)
  }
  var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  // NB: On some platforms the test binary sits inside a bundle a few folders down.
  for _ in 0..<4 {
    let candidate = directory.appendingPathComponent("standups")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    directory = directory.deletingLastPathComponent()
  }
  return URL(fileURLWithPath: ".build/debug/standups")
}()

/// A folder of its own for one test, removed afterwards.
struct TemporaryFolder: ~Copyable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("tmp"), withIntermediateDirectories: true)
  }

  deinit {
    let readOnly = url.appendingPathComponent("readonly")
    if FileManager.default.fileExists(atPath: readOnly.path) {
      makeWritable(readOnly)
    }
    try? FileManager.default.removeItem(at: url)
  }

  /// A database holding `standups` in a folder of its own that refuses new files, and so
  /// every write; the folder is made writable again when this folder is removed.
  ///
  /// - Returns: The database and the bytes it holds.
  func readOnlyDataFile(holding standups: IdentifiedArrayOf<Standup>) async throws -> (
    url: URL, contents: Data
  ) {
    let directory = path("readonly")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("standups.sqlite")
    try await makeDatabase(at: file, holding: standups, environment: environment)
    try makeUnwritable(directory)
    return (file, try Data(contentsOf: file))
  }

  /// A path inside the folder.
  func path(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// The environment a test launches the app with: its data, state and temporary files in this
  /// folder, UTC. NB: The machine's temporary folder would be shared with every other test and
  /// program running: a recovery file one left there would be another's business.
  var environment: [String: String] {
    [
      "HOME": url.path,
      "TMPDIR": url.appendingPathComponent("tmp").path,
      "XDG_DATA_HOME": url.appendingPathComponent("data").path,
      "XDG_STATE_HOME": url.appendingPathComponent("state").path,
      "TZ": "UTC",
      "TERM": "xterm-256color",
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  /// Where the app keeps its database by default in this folder.
  var dataFile: URL { url.appendingPathComponent("data/standups/standups.sqlite") }

  /// Where releases before the database kept the standups, by default, in this folder.
  var earlierReleaseDataFile: URL { url.appendingPathComponent("data/standups/standups.json") }

  /// Where the app keeps its session by default in this folder.
  var sessionFile: URL { url.appendingPathComponent("state/standups/session.json") }
}

/// What a run of the executable printed, and how it ended.
struct Run {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs `standups` with `arguments`, `input` on its standard input, to the end.
func runStandups(
  _ arguments: [String],
  input: String = "",
  environment: [String: String],
  workingFolder: String? = nil
) async throws -> Run {
  let process = Process()
  process.executableURL = standupsExecutable
  process.arguments = arguments
  process.environment = environment
  // NB: In the test's own folder, so that a path the app resolves against the working
  // directory (an empty --data-file) can only ever reach that folder.
  if let folder = workingFolder ?? environment["HOME"] {
    process.currentDirectoryURL = URL(fileURLWithPath: folder, isDirectory: true)
  }
  let standardInput = Pipe()
  let standardOutput = Pipe()
  let standardError = Pipe()
  process.standardInput = standardInput
  process.standardOutput = standardOutput
  process.standardError = standardError
  try process.run()
  standardInput.fileHandleForWriting.write(Data(input.utf8))
  try standardInput.fileHandleForWriting.close()
  let (output, errors) = try await untilItExits(
    process, output: standardOutput, errors: standardError)
  return Run(
    status: process.terminationStatus,
    output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errors, as: UTF8.self)
  )
}

/// Makes a folder refuse new files, even to root (who ignores permissions): immutable.
func makeUnwritable(_ directory: URL) throws {
  try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
  if geteuid() == 0 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = ["+i", directory.path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "chattr +i must work for this test to mean anything")
  }
}

/// Undoes ``makeUnwritable(_:)``.
func makeWritable(_ directory: URL) {
  if geteuid() == 0 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = ["-i", directory.path]
    try? process.run()
    process.waitUntilExit()
  }
  try? FileManager.default.setAttributes(
    [.posixPermissions: 0o700], ofItemAtPath: directory.path)
}

/// Runs `standups` with `arguments` to the end, without input, as a shell script would.
func runStandupsAndWait(_ arguments: [String], environment: [String: String]) async throws
  -> Run
{
  let process = Process()
  process.executableURL = standupsExecutable
  process.arguments = arguments
  process.environment = environment
  let standardOutput = Pipe()
  let standardError = Pipe()
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = standardOutput
  process.standardError = standardError
  try process.run()
  let (output, errors) = try await untilItExits(
    process, output: standardOutput, errors: standardError)
  return Run(
    status: process.terminationStatus,
    output: String(decoding: output, as: UTF8.self),
    errors: String(decoding: errors, as: UTF8.self)
  )
}

/// Makes the database at `url` hold `standups`, as `standups import` brings them in.
func makeDatabase(
  at url: URL,
  holding standups: IdentifiedArrayOf<Standup>,
  environment: [String: String]
) async throws {
  let json = url.deletingLastPathComponent()
    .appendingPathComponent("seed-\(UUID().uuidString).json")
  try FileManager.default.createDirectory(
    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
  try StandupsFile(standups: standups).encoded().write(to: json)
  defer { try? FileManager.default.removeItem(at: json) }
  let run = try await runStandupsAndWait(
    ["import", json.path, "--data-file", url.path], environment: environment)
  #expect(run.status == 0, "standups import: \(run.errors)")
}

/// The standups the database at `url` holds, as `standups export` writes them.
func storedStandups(at url: URL, environment: [String: String]) async throws
  -> IdentifiedArrayOf<Standup>
{
  let run = try await runStandupsAndWait(
    ["export", "--data-file", url.path], environment: environment)
  guard run.status == 0 else {
    throw ExportFailed(errors: run.errors)
  }
  return try StandupsFile.decode(Data(run.output.utf8)).standups
}

/// `standups export` failed.
struct ExportFailed: Error {
  var errors: String
}
