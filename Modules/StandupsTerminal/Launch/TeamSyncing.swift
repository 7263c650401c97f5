import Foundation
import StorageClient
import Synchronization
import TeamSync

/// The teams' servers beside the live app: for each team this machine is in, a
/// ``TeamSync/TeamSyncEngine`` runs for as long as the app does, on the database connection the
/// teams are shown through (``TeamOnScreen``), the teams of one server sharing one connection to it
/// (``TeamSync/ServerLink``). What it pulls reaches the screen as another instance's commits do
/// (the app reads them at once), with the questions it raises, which are read again every two
/// seconds for the answers another instance gave; how it stands shows on the status line when that
/// needs saying.
enum TeamSyncing {
  /// Shows the team and syncs with it until cancelled; does nothing while this machine is in no
  /// team (or its database cannot be opened a second time, which the app itself reports).
  ///
  /// An earlier release's database that another program holds at launch is not yet this
  /// release's: the team shows, and syncs, once the app has brought it up to date.
  @MainActor
  static func start(dataFile: URL, app: TerminalApp) -> Task<Void, Never> {
    Task.detached {
      guard
        let team = await TeamOnScreen.show(
          dataFile: dataFile, on: app, waitingForTheDatabase: Self.readAgainInterval)
      else { return }
      let lines = StatusLines()
      let unshown = Unshown()
      await withDiscardingTaskGroup { group in
        group.addTask {
          for await _ in unshown.news {
            let (report, statuses) = unshown.take()
            if !report.isEmpty { await show(report, team, app) }
            for (status, membership) in statuses {
              await show(status, of: membership, lines, team, app)
            }
          }
        }
        await syncEachTeam(in: team, every: Self.readAgainInterval) { membership, link in
          let engine = TeamSyncEngine(database: team.database, membership: membership, link: link)
          await engine.run(
            onStatus: { unshown.status($0, of: membership) },
            onPulled: { unshown.pulled($0) })
        } readingAgain: { teamsChanged in
          // NB: Only the questions (a small table) each time, the shared standups only when the
          // teams changed: an app holding thousands of standups stays idle.
          if teamsChanged { await team.showSharedStandups(on: app) }
          await team.askAboutDeletions(on: app)
        }
        unshown.finish()
      }
    }
  }

  /// What the engines told that the screen has yet to show, for the one task that shows it:
  /// each team's last status, and the pulls' reports merged.
  ///
  /// Invariant: what is held is one status a team and one report, however fast the engines tell
  /// (a member's rounds, four a second); and a team's last word (a removal, say) is never drawn
  /// over by an earlier one. Guarded by `TeamSyncingTests`.
  final class Unshown: Sendable {
    /// Says there is something to show; at most one signal is held.
    let news: AsyncStream<Void>
    private let signal: AsyncStream<Void>.Continuation
    private let held = Mutex<
      (report: TeamPullReport, statuses: [TeamMembership.ID: (TeamSyncStatus, TeamMembership)])
    >((TeamPullReport(), [:]))

    init() {
      (news, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func status(_ status: TeamSyncStatus, of membership: TeamMembership) {
      held.withLock { $0.statuses[membership.id] = (status, membership) }
      signal.yield()
    }

    func pulled(_ report: TeamPullReport) {
      held.withLock { $0.report.merge(report) }
      signal.yield()
    }

    /// What is held, leaving nothing.
    func take() -> (report: TeamPullReport, statuses: [(TeamSyncStatus, TeamMembership)]) {
      held.withLock { held in
        defer { held = (TeamPullReport(), [:]) }
        return (held.report, Array(held.statuses.values))
      }
    }

    func finish() { signal.finish() }
  }

  /// How often the app reads again what other instances may have changed about the teams: the
  /// teams this machine is in, and the answers given to the team's questions; and, before a team
  /// shows, the team tables, until the database can be read and this machine is in a team.
  static let readAgainInterval = Duration.seconds(2)

  private static func show(_ report: TeamPullReport, _ team: TeamOnScreen, _ app: TerminalApp) async
  {
    await MainActor.run {
      app.readChangesElsewhere()
      let notApplied = report.notAppliedSentences
      if !notApplied.isEmpty { app.tell(notApplied.joined(separator: " ")) }
      if let resent = report.resentSentence { app.tell(resent) }
      if let keptApart = report.keptApartSentence { app.tell(keptApart) }
    }
    if !report.deletedWhileChangedHere.isEmpty { await team.askAboutDeletions(on: app) }
  }

  private static func show(
    _ status: TeamSyncStatus, of membership: TeamMembership, _ lines: StatusLines,
    _ team: TeamOnScreen, _ app: TerminalApp
  ) async {
    let current = await team.current()
    let shared = await team.sharedStandups(among: current)
    let names = current.map { $0.name(among: current) }
    let said = await lines.saying(status, of: membership.name(among: current), among: names)
    await app.showTeam(current.map { $0.name(among: current) }, status: said, shared: shared)
  }
}
