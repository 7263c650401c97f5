import Foundation
import StorageClient
import TeamSync

/// The teams' servers beside the live app: for each team this machine has joined, a
/// ``TeamSync/TeamSyncEngine`` runs for as long as the app does, on the database connection the
/// teams are shown through (``TeamOnScreen``), the teams of one server sharing one connection
/// to it (``TeamSync/ServerLink``). What it pulls reaches the screen as another
/// instance's commits do (the app looks at once), with the questions it raises, which are read
/// again every two seconds for the answers another instance gave; how it stands shows on the
/// status line when that needs saying.
enum TeamSyncing {
  /// Shows the team and syncs with it until cancelled; does nothing when this machine has
  /// joined no team (or its database cannot be opened a second time, which the app itself
  /// reports).
  ///
  /// An earlier release's database that another program holds at launch is not yet this
  /// release's: the team shows, and syncs, once the app has brought it up to date.
  @MainActor
  static func start(dataFile: URL, app: TerminalApp) -> Task<Void, Never> {
    Task.detached {
      guard
        let team = await TeamOnScreen.show(
          dataFile: dataFile, on: app, waitingForTheDatabase: Self.lookInterval)
      else { return }
      let lines = StatusLines()
      let links = ServerLink.one(forEach: team.memberships.map(\.server))
      await withDiscardingTaskGroup { group in
        for membership in team.memberships {
          let engine = TeamSyncEngine(
            database: team.database, membership: membership, link: links[membership.server])
          group.addTask {
            await engine.run(
              onStatus: { status in
                let name = membership.name(among: team.memberships)
                Task { await show(status, of: name, lines, team, app) }
              },
              onPulled: { report in
                Task { @MainActor in
                  app.lookForChangesElsewhere()
                  if let sentences = notApplied(report.skipped) { app.tell(sentences) }
                  if let sentAgain = report.sentAgainSentence { app.tell(sentAgain) }
                  if let keptApart = report.keptApartSentence { app.tell(keptApart) }
                }
                if !report.deletedWhileChangedHere.isEmpty {
                  Task { await team.askAboutDeletions(on: app) }
                }
              })
          }
        }
        group.addTask {
          // NB: As often as the app looks for other instances' commits, a question another
          // instance answered closes here. Only the questions are read, a small table: an
          // app holding thousands of standups stays idle.
          while !Task.isCancelled {
            try? await Task.sleep(for: Self.lookInterval)
            await team.askAboutDeletions(on: app)
          }
        }
      }
    }
  }

  /// How often the team's questions are read again for answers other instances of the app gave.
  static let lookInterval = Duration.seconds(2)

  /// What the status line says of changes a round could not apply: ``notAppliedLines(_:)`` in
  /// one line.
  static func notApplied(_ skipped: [TeamPullReport.Skipped]) -> String? {
    skipped.isEmpty ? nil : notAppliedLines(skipped).joined(separator: " ")
  }

  /// The changes a round could not apply, the first few by name and the rest counted, so that
  /// a member who writes thousands of bad rows cannot fill the screen or the terminal.
  static func notAppliedLines(_ skipped: [TeamPullReport.Skipped]) -> [String] {
    let named = skipped.prefix(mostNamed).map(\.sentence)
    let more = skipped.count - named.count
    return named + (more > 0 ? ["\(more) more of the team's changes were not applied here."] : [])
  }

  /// The most entries of a list of the team's a message names before it counts the rest.
  static let mostNamed = 3

  private static func show(
    _ status: TeamSyncStatus, of name: String, _ lines: StatusLines, _ team: TeamOnScreen,
    _ app: TerminalApp
  ) async {
    let current = await team.current()
    let shared = await team.sharedStandups(among: current)
    let names = team.memberships.map { $0.name(among: team.memberships) }
    let said = await lines.saying(status, of: name, among: names)
    await app.showTeam(current.map { $0.name(among: current) }, status: said, shared: shared)
  }
}
