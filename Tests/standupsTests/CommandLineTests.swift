import Foundation
import StorageTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command line: what `--help` tells, and where a script comes from.
struct CommandLineTests {
  /// The app is the command itself, beside its `export` and `import` subcommands, so its help
  /// lists its own options as well as theirs.
  @Test func theHelpListsTheAppsOwnOptionsBesideExportAndImport() async throws {
    let folder = try TemporaryFolder()
    let help = try await runStandups(["--help"], environment: folder.environment)
    #expect(help.status == 0)
    for named in ["--data-file", "--script", "--open", "--fresh", "--no-color", "export", "import"]
    {
      #expect(help.output.contains(named), "\(named) in:\n\(help.output)")
    }

    let export = try await runStandups(["export", "--help"], environment: folder.environment)
    #expect(export.status == 0)
    #expect(export.output.contains("--output"))
  }

  /// `standups run`, which earlier releases listed, still runs the app.
  @Test func runStillRunsTheApp() async throws {
    let folder = try TemporaryFolder()
    let run = try await runStandups(
      ["run", "--script", "-", "--data-file", folder.path("standups.sqlite").path],
      input: "screen\n", environment: folder.environment)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("No standups yet."))
  }

  /// `--script -` reads the standard input the app was given, never `/dev/stdin` opened again:
  /// a socket can be read but not opened, by anyone.
  @Test func aScriptOnAStandardInputThatCannotBeOpenedAgainIsRead() async throws {
    let folder = try TemporaryFolder()
    var sockets: [Int32] = [-1, -1]
    try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
    let input = FileHandle(fileDescriptor: sockets[0], closeOnDealloc: true)
    let writer = FileHandle(fileDescriptor: sockets[1], closeOnDealloc: true)
    writer.write(Data("screen\n".utf8))
    try writer.close()

    let process = Process()
    process.executableURL = standupsExecutable
    process.arguments = ["--script", "-", "--data-file", folder.path("standups.sqlite").path]
    process.environment = folder.environment
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    try input.close()
    let (printed, complaint) = try await untilItExits(process, output: output, errors: errors)

    #expect(process.terminationStatus == 0, "\(String(decoding: complaint, as: UTF8.self))")
    #expect(String(decoding: printed, as: UTF8.self).contains("No standups yet."))
  }

  /// Nor can a pipe another user made be opened again; the app reads it all the same. (Run as
  /// root, which can start the app as another user.)
  @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: Self.setpriv)))
  func aScriptOnAPipeAnotherUserMadeIsRead() async throws {
    let folder = try TemporaryFolder()
    let shared = folder.path("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: shared.path)
    var environment = folder.environment
    environment["HOME"] = shared.path

    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.setpriv)
    process.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", standupsExecutable.path,
      "--script", "-", "--data-file", shared.appendingPathComponent("standups.sqlite").path,
    ]
    process.environment = environment
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data("screen\n".utf8))
    try input.fileHandleForWriting.close()
    let (printed, complaint) = try await untilItExits(process, output: output, errors: errors)

    #expect(process.terminationStatus == 0, "\(String(decoding: complaint, as: UTF8.self))")
    #expect(String(decoding: printed, as: UTF8.self).contains("No standups yet."))
  }

  static let setpriv = "/usr/bin/setpriv"

  /// An empty file at the data path is made a database, as the guide says.
  @Test func anEmptyFileAtTheDataPathIsMadeADatabase() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    try Data().write(to: data)

    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "a\ntype \"Retro\"\nenter\nq\n", environment: folder.environment)

    #expect(run.status == 0, "\(run.errors)")
    #expect(try Data(contentsOf: data).starts(with: Data("SQLite format 3\u{0}".utf8)))
    #expect(
      try await storedStandups(at: data, environment: folder.environment).map(\.title) == ["Retro"])
  }
}
