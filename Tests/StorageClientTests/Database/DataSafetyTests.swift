import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Testing

@testable import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at the database's path and is not a standups database the app may write is never
/// written: read, refused, or moved aside unchanged when the user asks.
struct DataSafetyTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aFileThatIsNotADatabaseIsNeverWrittenAndIsMovedAsideUnchangedWhenAsked() async throws {
    let text = Data("Notes from Monday\n".utf8)
    try text.write(to: URL(fileURLWithPath: folder.databasePath))
    let database = folder.database()

    await #expect(throws: StorageError.self) { try await database.load() }
    await #expect(throws: StorageError.refused(.unreadDataInTheWay)) {
      try await database.apply(.added([.mock]))
    }
    #expect(try folder.bytes(folder.databasePath) == text)

    let backup = try #require(try await database.keepUnreadableDataAside())
    #expect(try folder.bytes(backup) == text, "byte for byte")
    #expect(backup.hasSuffix(".sqlite"))
    try await database.apply(.added([.mock]))
    #expect(try await folder.database().load().standups == [.mock])
  }

  @Test func aDatabaseOfAnotherProgramIsNeverGivenTheAppsTables() async throws {
    let other = try DatabaseQueue(path: folder.databasePath)
    try await other.write { db in
      try db.execute(sql: "CREATE TABLE photo (id INTEGER PRIMARY KEY, name TEXT)")
    }
    try other.close()
    let before = try folder.bytes(folder.databasePath)

    await #expect {
      try await folder.database().load()
    } throws: { error in
      guard case .notADatabase(let problem, _) = error as? StorageError else { return false }
      return problem.reason == .notAStandupsDatabase
    }
    #expect(try folder.bytes(folder.databasePath) == before)
  }

  @Test func aDamagedDatabaseIsNeverWrittenAndIsMovedAsideUnchanged() async throws {
    try await folder.seed((0..<200).map(Standup.numbered))
    var bytes = try folder.bytes(folder.databasePath)
    // NB: Past the first page, which holds the header and the schema: the tables' pages.
    for offset in stride(from: 4096, to: bytes.count, by: 97) { bytes[offset] ^= 0xFF }
    let damaged = folder.path("damaged.sqlite")
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let opened = folder.database(at: damaged)

    await #expect(throws: StorageError.self) { try await opened.load() }
    await #expect(throws: StorageError.refused(.unreadDataInTheWay)) {
      try await opened.apply(.added([.mock]))
    }
    #expect(try folder.bytes(damaged) == bytes)
    let backup = try #require(try await opened.keepUnreadableDataAside())
    #expect(try folder.bytes(backup) == bytes)
  }

  @Test func aDatabaseOfANewerReleaseIsOnlyRead() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    let queue = try DatabaseQueue(path: folder.databasePath)
    try await queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('standups v99')")
    }
    try queue.close()
    let newer = folder.database()

    let stored = try await newer.load()

    #expect(stored.standups == [.mock])
    #expect(stored.access == .readOnly(.newerRelease(path: folder.databasePath)))
    await #expect(throws: StorageError.refused(.readOnly(.newerRelease(path: folder.databasePath))))
    {
      try await newer.apply(.deleted(Standup.mock.id))
    }
    #expect(try await newer.keepUnreadableDataAside() == nil, "a newer release's data stays put")
  }

  @Test func aReadOnlyDatabaseFileIsReadAndNeitherWrittenNorChanged() async throws {
    try await folder.seed([.mock])
    chmod(folder.databasePath, 0o444)
    let before = try folder.bytes(folder.databasePath)
    let namesBefore = try folder.names()
    let readOnly = folder.database()

    let stored = try await readOnly.load()

    #expect(stored.standups == [.mock])
    #expect(stored.access == .readOnly(.readOnlyFile(path: folder.databasePath)))
    await #expect(throws: StorageError.self) { try await readOnly.apply(.deleted(Standup.mock.id)) }
    #expect(try folder.bytes(folder.databasePath) == before)
    #expect(try folder.mode(folder.databasePath) == 0o444)
    #expect(try folder.names() == namesBefore, "not even a -wal or -shm file beside it")
  }

  @Test func aReadOnlyFolderIsReadAndNothingIsMadeInIt() async throws {
    let inside = folder.path("readonly/standups.sqlite")
    try await folder.seed([.mock], at: inside)
    chmod(folder.path("readonly"), 0o555)

    let stored = try await folder.database(at: inside).load()

    #expect(stored.standups == [.mock])
    #expect(stored.access == .readOnly(.readOnlyFolder(path: folder.path("readonly"))))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("readonly")) == [
        "standups.sqlite"
      ])
    #expect(try folder.mode(folder.path("readonly")) == 0o555)

    let fresh = try await folder.database(at: folder.path("readonly/other.sqlite")).load()
    #expect(fresh.access == .readOnly(.readOnlyFolder(path: folder.path("readonly"))))
  }

  @Test func aSymbolicLinkIsFollowedAndKept() async throws {
    try FileManager.default.createDirectory(
      atPath: folder.path("elsewhere"), withIntermediateDirectories: true)
    let target = folder.path("elsewhere/real.sqlite")
    _ = try await folder.database(at: target).load()
    try FileManager.default.createSymbolicLink(
      atPath: folder.databasePath, withDestinationPath: target)
    let linked = folder.database()
    _ = try await linked.load()

    try await linked.apply(.added([.mock]))

    #expect(try await folder.database(at: target).load().standups == [.mock])
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: folder.databasePath) == target)
  }

  @Test func aLinkToNothingIsMovedAsideOnlyWhenAsked() async throws {
    try FileManager.default.createSymbolicLink(
      atPath: folder.databasePath, withDestinationPath: folder.path("gone.sqlite"))
    let database = folder.database()

    await #expect(throws: StorageError.self) { try await database.load() }
    #expect(FileManager.default.fileExists(atPath: folder.path("gone.sqlite")) == false)

    let backup = try #require(try await database.keepUnreadableDataAside())
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: backup)
        == folder.path("gone.sqlite"))
    try await database.apply(.added([.mock]))
    #expect(try await folder.database().load().standups == [.mock])
  }

  @Test func aFolderANamedPipeOrASocketAtThePathIsNeverOpenedMovedOrWritten() async throws {
    try FileManager.default.createDirectory(
      atPath: folder.path("folder.sqlite"), withIntermediateDirectories: true)
    #expect(mkfifo(folder.path("pipe.sqlite"), 0o600) == 0)
    let socketPath = folder.path("socket.sqlite")
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in socketPath.utf8.enumerated() where index < buffer.count - 1 {
        buffer[index] = byte
      }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    defer { close(descriptor) }
    let cases: [(String, FileProblem.Reason)] = [
      (folder.path("folder.sqlite"), .isDirectory),
      (folder.path("pipe.sqlite"), .namedPipe),
      (socketPath, .socket),
      ("/dev/null", .device),
    ]
    let namesBefore = try folder.names()

    for (path, reason) in cases {
      let database = folder.database(at: path)
      await #expect {
        try await database.load()
      } throws: { error in
        guard case .notADataFile(let problem) = error as? StorageError else { return false }
        return problem.reason == reason
      }
      await #expect(throws: StorageError.self) { try await database.apply(.added([.mock])) }
      await #expect(throws: StorageError.self) { try await database.keepUnreadableDataAside() }
      #expect(StorageClient.problemWithDataFile(at: URL(fileURLWithPath: path))?.reason == reason)
    }
    #expect(try folder.names() == namesBefore)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path("folder.sqlite")).isEmpty)
  }

  @Test func aFileWhereAFolderShouldBeIsNamed() async throws {
    try Data("a file".utf8).write(to: URL(fileURLWithPath: folder.path("data")))

    await #expect {
      try await folder.database(at: folder.path("data/standups/standups.sqlite")).load()
    } throws: { error in
      guard case .notADataFile(let problem) = error as? StorageError else { return false }
      return problem.reason == .fileWhereAFolderShouldBe(folder.path("data"))
    }
    #expect(try folder.bytes(folder.path("data")) == Data("a file".utf8))
  }

  @Test func aFullDiskRollsTheChangeBackAndLosesNothing() async throws {
    let standups = IdentifiedArray(uniqueElements: (0..<20).map(Standup.numbered))
    try await folder.seed(standups.elements)
    let pages = try await DatabaseQueue(path: folder.databasePath).read { db in
      try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
    }
    let full = folder.database { $0.maximumPageCount = pages }
    _ = try await full.load()
    let big = Standup(
      id: Standup.ID(UUID(999)),
      meetings: [
        Meeting(
          id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 0),
          transcript: String(repeating: "words ", count: 50_000))
      ], title: "Too big")

    await #expect {
      try await full.apply(.added([big]))
    } throws: { error in
      guard case .writeFailed(let problem) = error as? StorageError else { return false }
      return problem.reason == .diskFull
    }
    #expect(try await folder.database().load().standups == standups, "nothing of it was written")
    try await full.apply(.edited(Standup.ID(UUID(3)), StandupEdit(title: "Still works")))
    #expect(
      try await folder.database().load().standups[id: Standup.ID(UUID(3))]?.title == "Still works")
  }

  /// A database opened on a disk with no room left: SQLite cannot grow the write-ahead log's
  /// shared-memory file, and says so as an I/O error of its own kind (SQLITE_IOERR_SHMSIZE).
  /// The user is told the disk is full, not that it failed.
  @Test func aDatabaseOpenedOnAFullDiskIsToldAsAFullDisk() async throws {
    let database = folder.database()
    let error = await database.storageError(
      DatabaseError(resultCode: .SQLITE_IOERR_SHMSIZE, message: "disk I/O error"),
      at: folder.databasePath, while: .opening)
    guard case .unreadable(let problem) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(problem.reason == .diskFull)
    #expect(problem.technicalDetail == "SQLite error 4874: disk I/O error")
    let other = await database.storageError(
      DatabaseError(resultCode: .SQLITE_IOERR_READ, message: "disk I/O error"),
      at: folder.databasePath, while: .reading)
    #expect(
      other
        == .unreadable(
          FileProblem(
            path: folder.databasePath, reason: .inputOutputError,
            technicalDetail: "SQLite error 266: disk I/O error")))
  }
}
