import Foundation
import IdentifiedCollections
import Models
import Testing

@testable import StorageClient

/// The data file of an earlier release (`standups.json`) is brought in once, at the first opening
/// that finds it, whatever made the database: the database records that it did.
struct EarlierReleaseTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  private var earlierFile: String { folder.path("standups.json") }

  private func appDatabase() -> StandupsDatabase {
    folder.database { $0.importingOnFirstLaunch = earlierFile }
  }

  @Test func theFileIsBroughtInEvenWhenAnImportMadeTheDatabaseFirst() async throws {
    try StandupsFile(standups: [.mock, .engineeringMock]).encoded()
      .write(to: URL(fileURLWithPath: earlierFile))
    let importing = folder.database()
    _ = try await importing.load()
    _ = try await importing.importStandups([.productMock], from: "other.json")

    let stored = try await appDatabase().load()

    #expect(stored.standups.map(\.title) == ["Product", "Design", "Engineering"])
    guard case .finished(let report) = stored.opening,
      case .imported(let imported)? = report.earlierRelease
    else {
      Issue.record("Expected the earlier release's file brought in, got \(stored.opening)")
      return
    }
    #expect(imported.added == ["Design", "Engineering"])
    let again = try await appDatabase().load()
    #expect(again.opening == .finished(OpeningReport()), "once")
    #expect(again.standups.count == 3)
  }

  @Test func aFileThatCannotBeReadIsNamedOnceAndLeftAsItIs() async throws {
    let broken = Data("{ not json".utf8)
    try broken.write(to: URL(fileURLWithPath: earlierFile))

    let stored = try await appDatabase().load()

    guard case .finished(let report) = stored.opening,
      case .failed(let path, _)? = report.earlierRelease
    else {
      Issue.record("Expected a failure to bring the file in, got \(stored.opening)")
      return
    }
    #expect(path == earlierFile)
    #expect(try folder.bytes(earlierFile) == broken)
    #expect(try await appDatabase().load().opening == .finished(OpeningReport()), "said once")
  }

  @Test func startingAgainEmptyNeverBringsTheFileInLater() async throws {
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: folder.databasePath))
    try StandupsFile(standups: [.mock]).encoded().write(to: URL(fileURLWithPath: earlierFile))
    let database = appDatabase()
    await #expect(throws: StorageError.self) { try await database.load() }

    _ = try await database.keepUnreadableDataAside()

    #expect(try await database.readStandups().isEmpty)
    #expect(try await appDatabase().load().standups.isEmpty, "not at the next launch either")
  }
}
