import Foundation
import Synchronization

// The cluster a run's tests share when the run names none (a plain `swift test`, as the README
// says): the first test that asks starts it, every test gets a database and roles of its own in
// it, as on the cluster `.ci/run` starts, and it stops when the test process exits. One server for
// the run, not one for each test: on two cores, a hundred clusters starting and running beside
// the tests starve the tests' own threads, and tests that wait on time limits fail.

extension TestServer {
  /// The port of the cluster the run's tests share, and its administrator's password; the first
  /// call starts it.
  static func runCluster() async throws -> (port: Int, password: String) {
    try await RunCluster.shared.started()
  }
}

/// Starts the run's cluster once, however many tests ask at once.
private actor RunCluster {
  static let shared = RunCluster()

  private var starting: Task<(port: Int, password: String), any Error>?

  func started() async throws -> (port: Int, password: String) {
    if let starting { return try await starting.value }
    let starting = Task { () async throws -> (port: Int, password: String) in
      // NB: As `.ci/run`'s: the tests that run at once hold a few connections each.
      let server = try await TestServer.startOwnCluster(settings: ["max_connections=300"])
      runClusterData.withLock { $0 = (server.ownCluster, server.folder) }
      atexit(stopRunCluster)
      return (server.port, server.administratorPassword)
    }
    self.starting = starting
    return try await starting.value
  }
}

/// The run cluster's data and folder, for the process's exit to stop and remove.
private let runClusterData = Mutex<(data: String?, folder: String)?>(nil)

/// Stops the run's cluster at the process's exit (`-m immediate`: its databases are throwaway),
/// on the exiting thread, since nothing is left to wait on.
private func stopRunCluster() {
  guard let (data, folder) = runClusterData.withLock({ $0 }), let data,
    let account = try? ServerAccount.current(), let pgCtl = try? TestServer.binary("pg_ctl")
  else { return }
  _ = try? account.runOnThisThread(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"])
  try? FileManager.default.removeItem(atPath: folder)
}
