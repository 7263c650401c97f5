import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Synchronization

@testable import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder of its own for one test, removed (made writable first) when the test ends.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-storage-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    if let paths = FileManager.default.enumerator(atPath: url.path) {
      for case let path as String in paths {
        chmod(url.appendingPathComponent(path).path, 0o700)
      }
    }
    chmod(url.path, 0o700)
    try? FileManager.default.removeItem(at: url)
  }

  /// A path in the folder.
  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  /// The database file most tests use.
  var databasePath: String { path("standups.sqlite") }

  /// A database at `path` (the usual one by default), with a fixed clock and meeting IDs.
  func database(
    at path: String? = nil,
    configure: (inout StandupsDatabase.Options) -> Void = { _ in }
  ) -> StandupsDatabase {
    var options = StandupsDatabase.Options()
    options.now = { Date(timeIntervalSince1970: 1_800_000_000) }
    let counter = Mutex(0)
    options.makeMeetingID = {
      counter.withLock { count in
        count += 1
        return UUID(count)
      }
    }
    configure(&options)
    return StandupsDatabase(path: path ?? databasePath, options: options)
  }

  /// Makes a database at `path` holding `standups`, and closes it, so that everything is in the
  /// database file itself (the last connection to close checkpoints the log and removes it).
  func seed(_ standups: [Standup], at path: String? = nil) async throws {
    let database = database(at: path)
    _ = try await database.load()
    try await database.apply(.added(standups))
  }

  /// The names in the folder, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  /// The bytes of a file.
  func bytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
  }

  /// A file's permission bits.
  func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
  }
}

/// Collects the SQL statements a database runs.
final class StatementLog: Sendable {
  private let statements = Mutex<[String]>([])

  /// Records `statement`; what ``StandupsDatabase/Options/onStatement`` is set to.
  @Sendable func record(_ statement: String) {
    statements.withLock { $0.append(statement) }
  }

  /// The statements run since the last call, without transaction bookkeeping.
  func take() -> [String] {
    statements.withLock { statements in
      defer { statements = [] }
      return statements.filter {
        !["BEGIN IMMEDIATE TRANSACTION", "COMMIT TRANSACTION", "BEGIN DEFERRED TRANSACTION"]
          .contains($0)
      }
    }
  }
}

extension Standup {
  /// A standup with only a title and one attendee, for tests that need many.
  static func numbered(_ number: Int) -> Standup {
    Standup(
      id: Standup.ID(UUID(number)),
      attendees: [Attendee(id: Attendee.ID(UUID(100_000 + number)), name: "Speaker \(number)")],
      title: "Standup \(number)"
    )
  }
}

extension StoredStandups {
  /// What opening wrote, when it finished.
  var openingReport: OpeningReport? {
    guard case .finished(let report) = opening else { return nil }
    return report
  }
}
