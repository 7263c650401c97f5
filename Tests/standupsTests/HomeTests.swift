import Foundation
import Models
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The homes a user's machine brings: one that is a file, one that is not set. The app never
/// promises a file where it cannot write one, and never writes to the folder it was started in.
@Suite(.serialized)
struct HomeTests {
  /// The data and state folders cannot be made under a home that is a file: the change is kept
  /// in the one place that takes it, under `$TMPDIR`, and every message names that place.
  @Test func aHomeThatIsAFileKeepsTheChangeInTheTemporaryFolderAndSaysSo() async throws {
    let folder = try TemporaryFolder()
    let home = folder.path("home-is-a-file")
    try Data().write(to: home)
    let temporary = folder.path("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let environment = ["HOME": home.path, "TMPDIR": temporary.path, "PATH": "/usr/bin:/bin"]

    let run = try await runStandups(
      ["--script", "-"], input: "wait 1s\nenter\na\ntype \"NEW\"\nenter\nq\n",
      environment: environment, workingFolder: folder.url.path)

    #expect(run.status == 74, "\(run.errors)")
    // NB: In a folder of this user's for this database (RecoveryFileTests), never loose in it.
    let kept = try FileManager.default.subpathsOfDirectory(atPath: temporary.path)
      .filter { $0.hasSuffix(".json") }
    #expect(kept.count == 1 && kept[0].hasPrefix("standups-\(getuid())-"))
    #expect(kept.first?.split(separator: "/").last?.hasPrefix("unsaved-standups-") == true)
    let file = temporary.appendingPathComponent(kept.first ?? "").path
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"NEW\""))
    #expect(run.errors.contains("They are in \(file)"))
    #expect(!run.errors.contains("\(home.path)/.local/state"), "no promise under the home")
    #expect(!run.output.contains("\(home.path)/.local/state"), "no promise under the home")
  }

  /// With HOME unset, the folders come from the environment's absolute XDG folders or the
  /// account's home, never from the folder the app was started in.
  @Test func anUnsetHomeNeverWritesToTheCurrentFolder() async throws {
    let folder = try TemporaryFolder()
    let current = folder.path("current")
    try FileManager.default.createDirectory(at: current, withIntermediateDirectories: true)
    let environment = [
      "XDG_DATA_HOME": folder.path("data").path, "XDG_STATE_HOME": folder.path("state").path,
      "PATH": "/usr/bin:/bin",
    ]

    let run = try await runStandups(
      ["--script", "-"], input: "a\ntype \"Retro\"\nenter\nq\n", environment: environment,
      workingFolder: current.path)

    #expect(run.status == 0, "\(run.errors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: current.path).isEmpty)
    let stored = try await storedStandups(
      at: folder.path("data/standups/standups.sqlite"), environment: environment)
    #expect(stored.map(\.title) == ["Retro"])
  }
}
