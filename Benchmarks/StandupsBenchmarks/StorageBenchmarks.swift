import Benchmark
import BenchmarkFixtures
import Foundation
import IdentifiedCollections
import Models
import Persistence
import StorageClient
import Synchronization

// What keeping the standups costs as they grow: one change committed, and a launch to the first
// frame's state. (Benchmarks/README.md has the JSON file store's figures, measured beside these
// in one run before it was removed.)

func storageBenchmarks() {
  for count in [10, 10_000] {
    let fixture = "database, \(count)"
    Benchmark("Storage.SaveChange/standups=\(count)", configuration: storageConfiguration()) {
      benchmark in
      guard case .database(let database, let id)? = prepared[fixture] else { return }
      benchmark.startMeasurement()
      for iteration in benchmark.scaledIterations {
        try await database.apply(.edited(id, StandupEdit(title: "Title \(iteration)")))
      }
      benchmark.stopMeasurement()
    } setup: {
      let standups = standupsToStore(count: count)
      let database = StandupsDatabase(
        path: try newFolder(fixture).appendingPathComponent("s.sqlite").path)
      _ = try await database.load()
      try await database.apply(.added(standups.elements))
      prepared[fixture] = .database(database, standups[count / 2].id)
    } teardown: {
      removeFolder(fixture)
    }

  }

  let launchCount = 10_000
  let launchFixture = "launch, database"
  Benchmark("Storage.Launch/standups=\(launchCount)", configuration: storageConfiguration()) {
    benchmark in
    guard case .path(let path)? = prepared[launchFixture] else { return }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let stored = try await StandupsDatabase(path: path).load()
      blackHole(PersistedApp.State(stored: .success(stored)))
    }
    benchmark.stopMeasurement()
  } setup: {
    let path = try newFolder(launchFixture).appendingPathComponent("s.sqlite").path
    let database = StandupsDatabase(path: path)
    _ = try await database.load()
    try await database.apply(.added(standupsToStore(count: launchCount).elements))
    prepared[launchFixture] = .path(path)
  } teardown: {
    removeFolder(launchFixture)
  }

}

/// What a case's setup made, for its runs to use: building 10,000 standups costs far more than
/// what is measured.
private enum Prepared: Sendable {
  case database(StandupsDatabase, Standup.ID)
  case path(String)
}

/// What each case's setup made, by the case's fixture name, with the folder its files are in.
private let fixtures = Mutex<[String: (folder: URL, prepared: Prepared?)]>([:])

/// The cases' set-up fixtures, by name.
private var prepared: PreparedCases { PreparedCases() }

private struct PreparedCases {
  subscript(name: String) -> Prepared? {
    get { fixtures.withLock { $0[name]?.prepared } }
    nonmutating set { fixtures.withLock { $0[name]?.prepared = newValue } }
  }
}

/// A new temporary folder for a case's files.
private func newFolder(_ name: String) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("standups-benchmark-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  fixtures.withLock { $0[name] = (url, nil) }
  return url
}

/// Removes a case's folder and what it prepared.
private func removeFolder(_ name: String) {
  if let url = fixtures.withLock({ $0.removeValue(forKey: name)?.folder }) {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Storage cases write to a disk and flush it: fewer iterations, and no allocation threshold
/// (SQLite's allocations are its own).
private func storageConfiguration() -> Benchmark.Configuration {
  var configuration = configuration()
  configuration.thresholds = [:]
  return configuration
}
