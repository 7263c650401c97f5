import Foundation
import Models
import StorageClient
import TeamSync

/// The team's server beside the live app: when this machine has joined a team, a
/// ``TeamSync/TeamSyncEngine`` runs for as long as the app does, on a database connection of
/// its own. What it pulls reaches the screen as another instance's commits do (the app looks at
/// once); how it stands shows on the status line when that needs saying, and the list marks
/// the shared standups.
enum TeamSyncing {
  /// Starts syncing, or returns `nil` when this machine has joined no team (or its database
  /// cannot be opened a second time, which the app itself reports).
  @MainActor
  static func start(dataFile: URL, app: TerminalApp) async -> Task<Void, Never>? {
    let database = StandupsDatabase(path: dataFile.path)
    guard (try? await database.load()) != nil,
      let membership = try? await database.teamMembership()
    else { return nil }
    let engine = TeamSyncEngine(database: database, membership: membership)
    app.showTeam(nil, shared: (try? await database.sharedStandupIDs()) ?? [])
    return Task.detached {
      await engine.run(
        onStatus: { status in
          Task { await show(status, database, app) }
        },
        onPulled: { _ in
          Task { @MainActor in app.lookForChangesElsewhere() }
        })
    }
  }

  private static func show(
    _ status: TeamSyncStatus, _ database: StandupsDatabase, _ app: TerminalApp
  ) async {
    let shared = (try? await database.sharedStandupIDs()) ?? []
    let line: String? =
      switch status {
      case .offline, .stopped: status.line
      case .connecting, .online: nil
      }
    await app.showTeam(line, shared: shared)
  }
}
