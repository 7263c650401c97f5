import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live file storage, against a fresh temporary directory per test.
struct FileStorageTests {
  let directory: URL
  let fileURL: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-tests-\(UUID().uuidString)", isDirectory: true)
    fileURL = directory.appendingPathComponent("data/standups.json")
  }

  @Test func aMissingFileLoadsAsNoStandups() async throws {
    defer { cleanUp() }
    let storage = StorageClient.file(at: fileURL)
    #expect(try await storage.load() == [])
    #expect(!FileManager.default.fileExists(atPath: fileURL.path))
  }

  @Test func savedStandupsLoadBack() async throws {
    defer { cleanUp() }
    let standups: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock]

    try await StorageClient.file(at: fileURL).save(standups)

    #expect(try await StorageClient.file(at: fileURL).load() == standups)
    let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(try leftovers().isEmpty)
  }

  @Test func aCorruptFileFailsWithATypedErrorAndIsLeftAlone() async throws {
    defer { cleanUp() }
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"title": 3}]}"#.utf8)
    try write(corrupt)

    await #expect {
      try await StorageClient.file(at: fileURL).load()
    } throws: { error in
      guard case .corrupt(.malformed(let path, _)) = error as? StorageError else { return false }
      return path == "standups[0].id"
    }
    #expect(try Data(contentsOf: fileURL) == corrupt)
  }

  @Test func savingOverACorruptFileKeepsABackup() async throws {
    defer { cleanUp() }
    let corrupt = Data("not json at all".utf8)
    try write(corrupt)
    let storage = StorageClient.file(at: fileURL)
    _ = try? await storage.load()

    try await storage.save([.productMock])

    #expect(try await storage.load() == [.productMock])
    let backups = try FileManager.default
      .contentsOfDirectory(atPath: fileURL.deletingLastPathComponent().path)
      .filter { $0.hasPrefix("standups.corrupt-") && $0.hasSuffix(".json") }
    #expect(backups.count == 1)
    let backup = fileURL.deletingLastPathComponent().appendingPathComponent(backups[0])
    #expect(try Data(contentsOf: backup) == corrupt)
  }

  @Test func aFailedWriteThrowsAndLeavesThePreviousFileIntact() async throws {
    defer { cleanUp() }
    let storage = StorageClient.file(at: fileURL)
    try await storage.save([.mock])
    let previous = try Data(contentsOf: fileURL)

    try makeReadOnly(fileURL.deletingLastPathComponent())
    defer { try? makeWritable(fileURL.deletingLastPathComponent()) }

    await #expect {
      try await storage.save([.engineeringMock])
    } throws: { error in
      guard case .writeFailed(let reason) = error as? StorageError else { return false }
      return reason.contains("could not create")
    }
    #expect(try Data(contentsOf: fileURL) == previous)
    #expect(try await storage.load() == [.mock])
  }

  @Test func theDefaultFileFollowsXDG() {
    #expect(
      StorageClient.defaultFileURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/blob"])
        .path == "/data/standups/standups.json"
    )
    #expect(
      StorageClient.defaultFileURL(environment: ["HOME": "/home/blob"]).path
        == "/home/blob/.local/share/standups/standups.json"
    )
  }

  private func write(_ data: Data) throws {
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try data.write(to: fileURL)
  }

  private func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: fileURL.deletingLastPathComponent().path)
      .filter { $0 != fileURL.lastPathComponent }
  }

  /// Makes a directory refuse new files. Permissions do not bind root, so as root the
  /// directory is also made immutable, which binds everyone.
  private func makeReadOnly(_ directory: URL) throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
    guard isWritable(directory) else { return }
    try run("/usr/bin/chattr", "+i", directory.path)
    if isWritable(directory) {
      Issue.record("This machine cannot make \(directory.path) read-only, even for root.")
    }
  }

  private func makeWritable(_ directory: URL) throws {
    guard FileManager.default.fileExists(atPath: directory.path) else { return }
    if geteuid() == 0 {
      try? run("/usr/bin/chattr", "-i", directory.path)
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
  }

  private func isWritable(_ directory: URL) -> Bool {
    let probe = directory.appendingPathComponent(".probe-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else { return false }
    try? FileManager.default.removeItem(at: probe)
    return true
  }

  private func run(_ executable: String, _ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
  }

  private func cleanUp() {
    try? makeWritable(fileURL.deletingLastPathComponent())
    try? FileManager.default.removeItem(at: directory)
  }
}
