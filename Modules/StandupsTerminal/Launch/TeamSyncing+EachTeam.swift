import Foundation
import StorageClient
import TeamSync

// Each team this machine is in, from when it joins it: the live app reads its teams again every
// two seconds and starts an engine for each membership it has not seen, on the link its server's
// other teams share.

extension TeamSyncing {
  /// Runs `sync` for each team of `team`'s database, from when this machine is in it, until
  /// cancelled: the teams are read again every `interval`, so that a team joined in a shell
  /// while the app runs syncs within it, and `readAgain` is told whether they changed since it was
  /// last called. Each server's teams share one ``TeamSync/ServerLink``. A team this machine
  /// leaves needs nothing here: its engine stops once its membership is gone.
  ///
  /// Invariant: one `sync` for each membership ever seen, for as long as it runs (a team left
  /// and joined again is a new membership, and one joined again without leaving a new machine).
  /// Guarded by `TeamSyncingTests`.
  static func syncEachTeam(
    in team: TeamOnScreen,
    every interval: Duration,
    clock: some Clock<Duration> = ContinuousClock(),
    _ sync: @escaping @Sendable (TeamMembership, ServerLink) async -> Void,
    readingAgain readAgain: (_ teamsChanged: Bool) async -> Void
  ) async {
    var links: [String: ServerLink] = [:]
    // NB: By machine too: `team join` of a team this machine is in makes it another machine.
    var started: Set<Engine> = []
    var teams = team.memberships.map(\.id)
    await withDiscardingTaskGroup { group in
      while !Task.isCancelled {
        let current = await team.current()
        for membership in current
        where started.insert(Engine(membership: membership.id, machine: membership.machine))
          .inserted
        {
          let link = links[membership.server] ?? ServerLink(server: membership.server)
          links[membership.server] = link
          group.addTask { await sync(membership, link) }
        }
        await readAgain(current.map(\.id) != teams)
        teams = current.map(\.id)
        try? await clock.sleep(for: interval)
      }
    }
  }

  /// An engine ``syncEachTeam(in:every:clock:_:readingAgain:)`` started: one for each membership,
  /// as each machine.
  private struct Engine: Hashable {
    var membership: TeamMembership.ID
    var machine: UUID
  }
}
