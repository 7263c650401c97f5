import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import StandupsList
import StorageClient
import Testing

@testable import Persistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder of its own for one test, removed when the test ends.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-persistence-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    if let paths = FileManager.default.enumerator(atPath: url.path) {
      for case let path as String in paths {
        chmod(url.appendingPathComponent(path).path, 0o700)
      }
    }
    try? FileManager.default.removeItem(at: url)
  }

  /// The database most tests use.
  var databasePath: String { url.appendingPathComponent("standups.sqlite").path }

  /// A database at the usual path.
  func database(configure: (inout StandupsDatabase.Options) -> Void = { _ in }) -> StandupsDatabase
  {
    var options = StandupsDatabase.Options()
    options.now = { Date(timeIntervalSince1970: 1_800_000_000) }
    configure(&options)
    return StandupsDatabase(path: databasePath, options: options)
  }

  /// What the database at the usual path holds, read by a connection of its own.
  func stored() async throws -> IdentifiedArrayOf<Standup> {
    try await database().readStandups()
  }

  /// Makes the database hold `standups`, and closes it.
  func seed(_ standups: [Standup]) async throws {
    let database = database()
    _ = try await database.load()
    try await database.apply(.added(standups))
  }
}

/// A store of the persisted app on `database`, started as its load left it. A write that fails
/// is tried again only when the test advances `clock`.
@MainActor
func makeStore(
  on database: StandupsDatabase,
  storage: StorageClient? = nil,
  path: StackState<AppFeature.Path.State> = StackState(),
  destination: AppFeature.Destination.State? = nil,
  clock: TestClock<Duration> = TestClock()
) async -> TestStore<PersistedApp.State, PersistedApp.Action> {
  let stored: Result<StoredStandups, StorageError>
  do {
    stored = .success(try await database.load())
  } catch {
    stored = .failure(error)
  }
  return TestStore(
    initialState: PersistedApp.State(
      app: AppFeature.State(destination: destination, path: path), stored: stored)
  ) {
    PersistedApp()
  } withDependencies: {
    $0.storageClient = storage ?? .database(database)
    $0.date.now = Date(timeIntervalSince1970: 1_800_000_000)
    $0.uuid = .incrementing
    $0.continuousClock = clock
  }
}

extension PersistedApp.StorageState {
  /// The storage of an app whose standups are written.
  static var writable: Self { Self(status: .writable) }
}

/// A plain GRDB connection to a database file, as another program would open it.
struct DatabaseQueueOnFile {
  let queue: DatabaseQueue

  init(_ path: String) throws {
    queue = try DatabaseQueue(path: path)
  }
}

extension StoredStandups {
  /// What opening wrote, when it finished.
  var openingReport: OpeningReport? {
    guard case .finished(let report) = opening else { return nil }
    return report
  }
}
