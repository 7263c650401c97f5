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
    let team = membership.team
    app.showTeam(team, status: nil, shared: (try? await database.sharedStandupIDs()) ?? [])
    app.shareWithTeam = { id in
      // NB: The engine sees the change it keeps for the team at its next look at the outbox.
      _ = try? await database.share([id])
      let shared = (try? await database.sharedStandupIDs()) ?? []
      await MainActor.run { app.showTeam(team, status: app.view.team, shared: shared) }
    }
    app.answerTeamDeletion = { answer in
      switch answer {
      case .keep(let id): try? await database.answerTeamDeletion(of: id, keep: true)
      case .letGo(let id): try? await database.answerTeamDeletion(of: id, keep: false)
      }
      await MainActor.run { app.lookForChangesElsewhere() }
      await askAboutDeletions(database, app)
    }
    await askAboutDeletions(database, app)
    return Task.detached {
      await engine.run(
        onStatus: { status in
          Task { await show(status, team, database, app) }
        },
        onPulled: { report in
          Task { @MainActor in
            app.lookForChangesElsewhere()
            if let sentences = notApplied(report.skipped) { app.tell(sentences) }
            if let sentAgain = report.sentAgainSentence { app.tell(sentAgain) }
          }
          if !report.deletedWhileChangedHere.isEmpty {
            Task { await askAboutDeletions(database, app) }
          }
        })
    }
  }

  /// What the status line says of changes a round could not apply: the first few by name, so
  /// that a member who writes thousands of bad rows cannot fill the screen.
  static func notApplied(_ skipped: [TeamPullReport.Skipped]) -> String? {
    guard !skipped.isEmpty else { return nil }
    let named = skipped.prefix(3).map(\.sentence)
    let more = skipped.count - named.count
    return (named + (more > 0 ? ["\(more) more of the team's changes were not applied here."] : []))
      .joined(separator: " ")
  }

  private static func askAboutDeletions(_ database: StandupsDatabase, _ app: TerminalApp) async {
    let questions = (try? await database.teamDeletionQuestions()) ?? []
    await app.askAboutTeamDeletions(questions)
  }

  private static func show(
    _ status: TeamSyncStatus, _ team: String, _ database: StandupsDatabase, _ app: TerminalApp
  ) async {
    let shared = (try? await database.sharedStandupIDs()) ?? []
    let line: String? =
      switch status {
      case .offline, .stopped: status.line
      case .connecting, .online: nil
      }
    await app.showTeam(team, status: line, shared: shared)
  }
}
