import Foundation
import IdentifiedCollections
import Models
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `standups export --output`: never onto the data it reads, only for the user's eyes, and a
/// failure that says why.
struct ExportTests {
  @Test(arguments: ["", "-wal", "-shm", "-journal", "link"])
  func anExportOntoTheDatabaseOrOneOfItsFilesIsRefusedAndTouchesNothing(suffix: String) async throws
  {
    let folder = try TemporaryFolder()
    try await makeDatabase(at: folder.dataFile, holding: [.mock], environment: folder.environment)
    let target: URL
    if suffix == "link" {
      target = folder.path("link.sqlite")
      #expect(symlink(folder.dataFile.path, target.path) == 0)
    } else {
      target = URL(fileURLWithPath: folder.dataFile.path + suffix)
    }
    let before = try? Data(contentsOf: target)

    let run = try await runStandupsAndWait(
      ["export", "--output", target.path], environment: folder.environment)

    #expect(run.status == 73)
    #expect(run.errors.contains("database"), "\(run.errors)")
    if suffix == "" || suffix == "link" {
      #expect((try? Data(contentsOf: target)) == before)
    } else {
      // NB: Reading the database for the export may itself make or change its -wal and -shm.
      #expect((try? Data(contentsOf: target))?.first != UInt8(ascii: "{"), "no JSON in it")
    }
    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment) == [.mock])
  }

  @Test func anExportIsReadableOnlyByItsOwner() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(at: folder.dataFile, holding: [.mock], environment: folder.environment)
    let file = folder.path("export.json")

    let run = try await runStandupsAndWait(
      ["export", "--output", file.path], environment: folder.environment)

    #expect(run.status == 0, "\(run.errors)")
    let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
  }

  @Test func anExportThatCannotBeWrittenSaysWhy() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(at: folder.dataFile, holding: [.mock], environment: folder.environment)

    let run = try await runStandupsAndWait(
      ["export", "--output", folder.path("no/such/folder/export.json").path],
      environment: folder.environment)

    #expect(run.status == 73)
    #expect(run.errors.contains("it does not exist"), "\(run.errors)")
  }

  /// The rules a standup must keep are one set: what the database holds, export writes and
  /// import takes back.
  @Test func aStandupAsLongAsTheRulesAllowComesBackThroughExportAndImport() async throws {
    let folder = try TemporaryFolder()
    var long = Standup.mock
    long.duration = StandupRules.longestDuration
    try await makeDatabase(at: folder.dataFile, holding: [long], environment: folder.environment)
    let file = folder.path("export.json")
    let exported = try await runStandupsAndWait(
      ["export", "--output", file.path], environment: folder.environment)
    #expect(exported.status == 0, "\(exported.errors)")

    let other = folder.path("other.sqlite")
    let imported = try await runStandupsAndWait(
      ["import", file.path, "--data-file", other.path], environment: folder.environment)

    #expect(imported.status == 0, "\(imported.errors)")
    #expect(try await storedStandups(at: other, environment: folder.environment) == [long])
  }
}
