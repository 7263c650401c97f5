import Foundation
import Models
import PostgresNIO
import StorageClient

// The recoveries a round adds to the ordinary path (push, the team's order, pull, report): a
// server that lost changes this machine pushed, one restored from an older backup, and a
// history the owner pruned. Each is looked for in every round, and each costs a statement or
// nothing when there is nothing to recover from; what a recovery found then does is
// TeamSyncEngine+Restore.swift's. TeamSync's article says what each keeps.

extension TeamSyncEngine {
  /// Brings this machine onto the team's `order` when the server changed under it, before the
  /// pull.
  ///
  /// - When the server has forgotten changes this machine applied
  ///   (``serverForgot(place:order:on:)``), the machine starts again from the server's first
  ///   change (``startAgain(at:order:as:on:into:)``).
  /// - When the owner pruned its place from the history, or it has never pulled from a team
  ///   whose history was compacted, it starts from the compacted state rather than from each
  ///   change (`StorageClient.TeamLedger.startFrom`).
  ///
  /// A restore may keep standups to send again after the pull
  /// (``sendAgainWhatARecoveryKept(after:from:on:into:)``).
  func catchUp(
    with order: TeamServer.Order, from here: TeamMembership, as role: String,
    on connection: PostgresConnection, into round: inout Round
  ) async throws {
    let place = here.lastSequence
    if try await serverForgot(place: place, order: order, on: connection) {
      logger.warning("The team's server has forgotten changes this machine applied")
      try await startAgain(at: place, order: order, as: role, on: connection, into: &round)
    } else if place < order.prunedThrough
      || (here.lastSyncedAt == nil && place < order.compactedThrough)
    {
      try await startFromCompactedState(as: role, on: connection, into: &round)
    }
  }

  /// Sends again, whole, the standups a recovery kept for the team, once the pull has brought
  /// the server's order (`pulled`, the membership after it): also those of an earlier round that
  /// ended before it could, since the membership's `resharePending` says a resend is owed until
  /// it is made. Costs nothing otherwise.
  func sendAgainWhatARecoveryKept(
    after pulled: TeamMembership, from machine: MemberMachine, on connection: PostgresConnection,
    into round: inout Round
  ) async throws {
    guard pulled.resharePending else { return }
    round.report.merge(
      try await applying {
        var report = TeamPullReport()
        report.resent = try await database.resendTeamStandups(in: membership.id)
        return report
      })
    round.pushed += try await pushWaiting(from: machine, on: connection)
  }

  /// Whether the server has forgotten changes this machine applied: the change at `place`, the
  /// last this machine applied, is missing from its order, or is one this machine never saw
  /// (others pushed new changes after the server was restored from an older backup). When the
  /// owner pruned the history through `place`, the server is asked instead whether it has, in
  /// its history or its compacted state, the last change applied here of each machine's.
  func serverForgot(
    place: Int64, order: TeamServer.Order, on connection: PostgresConnection
  ) async throws -> Bool {
    guard place > 0 else { return false }
    // NB: A database an earlier release pulled into has seen no machine yet; it learns them as
    // it pulls.
    let seen = try await database.teamMachinesSeen(in: membership.id)
    guard place > order.prunedThrough else {
      let known = try await TeamServer.newestChanges(
        of: Array(seen.keys), team: membership.team, on: connection, logger: logger)
      return seen.contains { machine, applied in known[machine, default: 0] < applied }
    }
    guard let found = order.atPlace else { return true }
    return !seen.isEmpty && found.machineSequence > seen[found.machine, default: 0]
  }

  /// Marks for pushing again this machine's changes the server committed and no longer has: a
  /// server restored from an older backup after the push, before they came back in a pull.
  /// Costs a read of the outbox, and a statement only while pushed changes have not come back.
  func pushAgainWhatTheServerLost(
    from machine: MemberMachine, on connection: PostgresConnection
  ) async throws {
    guard let pushed = try await database.newestPushedTeamChange(in: membership.id) else { return }
    let kept = try await TeamServer.newestChange(
      of: machine, team: membership.team, on: connection, logger: logger)
    if kept < pushed {
      logger.warning("The team's server has lost changes this machine pushed")
      try await database.teamChangesNotPushed(in: membership.id, after: kept)
    }
  }
}
