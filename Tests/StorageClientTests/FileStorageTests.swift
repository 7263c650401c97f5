import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
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
    #expect(try await storage.load() == StoredStandups(standups: []))
    #expect(!FileManager.default.fileExists(atPath: fileURL.path))
  }

  @Test func savedStandupsLoadBack() async throws {
    defer { cleanUp() }
    let standups: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock]
    let storage = StorageClient.file(at: fileURL)

    await #expect(throws: StorageError.refused(.unreadDataInTheWay)) {
      try await storage.save(standups, nil, 1)
    }
    _ = try await storage.load()
    _ = try await storage.save(standups, nil, 1)

    #expect(try await StorageClient.file(at: fileURL).load().standups == standups)
    let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let directoryAttributes = try FileManager.default.attributesOfItem(
      atPath: fileURL.deletingLastPathComponent().path
    )
    #expect((directoryAttributes[.posixPermissions] as? Int) == 0o700)
    #expect(try leftovers().isEmpty)
  }

  @Test func anOlderRevisionArrivingLateIsNotWritten() async throws {
    defer { cleanUp() }
    let storage = StorageClient.file(at: fileURL)
    _ = try await storage.load()

    _ = try await storage.save([.engineeringMock], nil, 2)
    _ = try await storage.save([.mock], nil, 1)

    #expect(try await storage.load().standups == [.engineeringMock])
  }

  @Test func aCorruptFileFailsWithATypedErrorAndIsLeftAlone() async throws {
    defer { cleanUp() }
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"title": 3}]}"#.utf8)
    try write(corrupt)
    let storage = StorageClient.file(at: fileURL)

    await #expect {
      try await storage.load()
    } throws: { error in
      guard case .corrupt(.malformed(let path, _)) = error as? StorageError else { return false }
      return path == "standups[0].id"
    }
    await #expect(throws: StorageError.refused(.unreadDataInTheWay)) {
      try await storage.save([.mock], nil, 1)
    }
    #expect(try Data(contentsOf: fileURL) == corrupt)
  }

  @Test func aCorruptFileIsCopiedAsideBeforeItIsReplaced() async throws {
    defer { cleanUp() }
    let corrupt = Data("not json at all".utf8)
    try write(corrupt)
    let storage = StorageClient.file(at: fileURL)
    _ = try? await storage.load()

    let backup = try #require(try await storage.keepUnreadableData())
    #expect(try Data(contentsOf: fileURL) == corrupt)
    _ = try await storage.save([.productMock], nil, 1)

    #expect(try await storage.load().standups == [.productMock])
    #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == corrupt)
    #expect(try backups() == [(backup as NSString).lastPathComponent])
  }

  @Test func backupsMadeInTheSameMillisecondNeverCollideAndSortByTime() async throws {
    defer { cleanUp() }
    var made: [String] = []
    for round in 1...3 {
      try write(Data("corrupt \(round)".utf8))
      let storage = StorageClient.file(at: fileURL)
      _ = try? await storage.load()
      made.append(try #require(try await storage.keepUnreadableData()))
      _ = try await storage.save([.mock], nil, 1)
    }

    let names = made.map { ($0 as NSString).lastPathComponent }
    #expect(Set(names).count == 3)
    #expect(names == names.sorted())
    #expect(try backups() == names)
    for (round, backup) in made.enumerated() {
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: backup)) == Data("corrupt \(round + 1)".utf8))
    }
  }

  @Test func aFolderInThePlaceOfTheFileIsNeverMovedOrWritten() async throws {
    defer { cleanUp() }
    try FileManager.default.createDirectory(at: fileURL, withIntermediateDirectories: true)
    try Data("keep me".utf8).write(to: fileURL.appendingPathComponent("inside.txt"))
    let storage = StorageClient.file(at: fileURL)

    await #expect {
      try await storage.load()
    } throws: { error in
      guard case .notADataFile(let problem) = error as? StorageError else { return false }
      let message = "\(error)"
      return problem.reason == .isDirectory
        && message.contains("it is a folder, not a file")
        && !message.contains("NSCocoaErrorDomain")
    }
    await #expect(throws: StorageError.refused(.notADataFile)) {
      try await storage.save([.mock], nil, 1)
    }
    await #expect(throws: StorageError.self) {
      try await storage.keepUnreadableData()
    }
    #expect(
      try Data(contentsOf: fileURL.appendingPathComponent("inside.txt")) == Data("keep me".utf8))
    #expect(try backups().isEmpty)
    #expect(StorageClient.problemWithDataFile(at: fileURL)?.reason == .isDirectory)
  }

  @Test func aFileWhereTheDataFolderShouldBeIsNamed() async throws {
    defer { cleanUp() }
    try write(Data("a file".utf8))
    let inside = fileURL.appendingPathComponent("standups.json")
    let storage = StorageClient.file(at: inside)

    await #expect {
      try await storage.load()
    } throws: { error in
      guard case .notADataFile(let problem) = error as? StorageError else { return false }
      return problem.reason == .fileWhereAFolderShouldBe(fileURL.path)
        && "\(error)".contains("\(fileURL.path) is a file, where a folder should be")
    }
    await #expect(throws: StorageError.refused(.notADataFile)) {
      try await storage.save([.mock], nil, 1)
    }
    #expect(try Data(contentsOf: fileURL) == Data("a file".utf8))
  }

  @Test func aDeviceOrANamedPipeIsNeverOpened() async throws {
    defer { cleanUp() }
    #expect(
      StorageClient.problemWithDataFile(at: URL(fileURLWithPath: "/dev/null"))?.reason == .device)
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    #expect(mkfifo(fileURL.path, 0o600) == 0)
    let storage = StorageClient.file(at: fileURL)
    // NB: Opened, a named pipe would block the load until something wrote to it.
    await #expect(throws: StorageError.self) { try await storage.load() }
    await #expect(throws: StorageError.refused(.notADataFile)) {
      try await storage.save([.mock], nil, 1)
    }
    #expect(StorageClient.problemWithDataFile(at: fileURL)?.reason == .namedPipe)
  }

  @Test func aFileFromANewerReleaseLoadsButIsNeverWrittenOver() async throws {
    defer { cleanUp() }
    let newer = Data(
      #"{"formatVersion": 7, "standups": [], "somethingNew": {"a": 1}}"#.utf8
    )
    try write(newer)
    let storage = StorageClient.file(at: fileURL)

    let stored = try await storage.load()
    #expect(stored.formatVersion == 7)
    #expect(stored.isFromNewerRelease)
    await #expect(throws: StorageError.refused(.newerRelease(7))) {
      try await storage.save([.mock], nil, 1)
    }
    #expect(try await storage.keepUnreadableData() == nil)
    #expect(try Data(contentsOf: fileURL) == newer)
  }

  @Test func aFileFromANewerReleaseThatCannotBeReadIsNeitherKeptAsideNorReplaced() async throws {
    defer { cleanUp() }
    let newer = Data(#"{"formatVersion": 9, "standups": [{"shape": "unknown"}]}"#.utf8)
    try write(newer)
    let storage = StorageClient.file(at: fileURL)

    await #expect(throws: StorageError.corrupt(.unsupportedVersion(9))) {
      try await storage.load()
    }
    #expect(try await storage.keepUnreadableData() == nil)
    await #expect(throws: StorageError.refused(.newerRelease(9))) {
      try await storage.save([.mock], nil, 1)
    }
    #expect(try Data(contentsOf: fileURL) == newer)
    #expect(try backups().isEmpty)
  }

  @Test func aSymbolicLinkIsFollowedAndKept() async throws {
    defer { cleanUp() }
    let real = directory.appendingPathComponent("elsewhere/real.json")
    try FileManager.default.createDirectory(
      at: real.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try StandupsFile(standups: [.mock]).encoded().write(to: real)
    try FileManager.default.createDirectory(
      at: fileURL.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try FileManager.default.createSymbolicLink(at: fileURL, withDestinationURL: real)
    let storage = StorageClient.file(at: fileURL)

    #expect(try await storage.load().standups == [.mock])
    _ = try await storage.save([.engineeringMock], nil, 1)

    let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(try StandupsFile.decode(Data(contentsOf: real)).standups == [.engineeringMock])
  }

  @Test func aFailedWriteSaysWhyInWordsAndLeavesThePreviousFileIntact() async throws {
    defer { cleanUp() }
    let storage = StorageClient.file(at: fileURL)
    _ = try await storage.load()
    _ = try await storage.save([.mock], nil, 1)
    let previous = try Data(contentsOf: fileURL)

    try makeReadOnly(fileURL.deletingLastPathComponent())
    defer { try? makeWritable(fileURL.deletingLastPathComponent()) }

    await #expect {
      try await storage.save([.engineeringMock], nil, 2)
    } throws: { error in
      guard case .writeFailed(let problem) = error as? StorageError else { return false }
      let message = "\(error)"
      return [.permissionDenied, .readOnlyDisk].contains(problem.reason)
        && !message.contains("NSCocoaErrorDomain") && !message.contains("errno")
        && problem.technicalDetail.contains("errno")
    }
    #expect(try Data(contentsOf: fileURL) == previous)
    #expect(try await storage.load().standups == [.mock])
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
    #expect(
      StorageClient.defaultFileURL(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/blob"])
        .path == "/home/blob/.local/share/standups/standups.json"
    )
  }

  @Test func twoClientsOnOneFileNeverWriteOverEachOther() async throws {
    defer { cleanUp() }
    let first = StorageClient.file(at: fileURL)
    let second = StorageClient.file(at: fileURL)
    _ = try await first.load()
    _ = try await second.load()

    #expect(try await first.save([.mock], nil, 1) == .saved)
    let seen = StoredChange(known: [], stored: [.mock])
    #expect(try await second.storedChange() == seen)
    #expect(try await second.storedChange() == seen, "looking changes nothing the client knows")
    #expect(try await second.save([.engineeringMock], nil, 1) == .storedDataChanged(seen))
    #expect(try await StorageClient.file(at: fileURL).load().standups == [.mock])

    let merged = seen.stored.applyingChanges(from: seen.known, to: [.engineeringMock])
    #expect(try await second.save(merged, seen.stored, 2) == .saved)
    #expect(try await second.storedChange() == nil)
    #expect(try await StorageClient.file(at: fileURL).load().standups == [.mock, .engineeringMock])

    #expect(
      try await first.save([.productMock], nil, 2)
        == .storedDataChanged(StoredChange(known: [.mock], stored: [.mock, .engineeringMock])))
  }

  @Test func anEditOfTheFileFromOutsideIsNoticedAndAFileDeletedFromOutsideIsWrittenAgain()
    async throws
  {
    defer { cleanUp() }
    let storage = StorageClient.file(at: fileURL)
    _ = try await storage.load()
    #expect(try await storage.save([.mock], nil, 1) == .saved)

    var edited = Standup.mock
    edited.title = "Edited in a text editor"
    try write(try StandupsFile(standups: [edited]).encoded())
    #expect(
      try await storage.save([.mock, .productMock], nil, 2)
        == .storedDataChanged(StoredChange(known: [.mock], stored: [edited])))

    try FileManager.default.removeItem(at: fileURL)
    #expect(try await storage.save([.mock, .productMock], nil, 3) == .saved)
    #expect(try await storage.load().standups == [.mock, .productMock])
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

  private func backups() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: fileURL.deletingLastPathComponent().path)
      .filter { $0.hasPrefix("standups.backup-") }
      .sorted()
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
