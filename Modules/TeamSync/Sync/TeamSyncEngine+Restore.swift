import Foundation
import Models
import PostgresNIO
import StorageClient

// Starting again when the server changed under this machine: a server restored from an older
// backup (start again from its first change, and send again what it lost), and a history the
// owner pruned (start from the compacted state). `catchUp` and `pull` come here only when a
// round finds one of them; an ordinary round never does.

extension TeamSyncEngine {
  /// Starts again after the server forgot changes this machine applied: replays the server's
  /// history from its beginning, applying only what is new here, and after the pull sends again
  /// the standups whose last change the server lost.
  ///
  /// A history whose pruned beginning holds what this machine cannot replay (its own place was
  /// pruned, or the compacted state folds changes it never saw) is not replayed: the machine
  /// starts from the compacted state keeping every shared standup as it is here, and sends them
  /// all again, so that it loses nothing. Where its values and the state's differ, its own are
  /// sent and win: the state cannot say which are newer.
  func startAgain(
    at place: Int64, order: TeamServer.Order, as role: String,
    on connection: PostgresConnection, into round: inout Round
  ) async throws {
    if order.prunedThrough > 0,
      let state = try await TeamServer.compactedState(
        team: membership.team, on: connection, logger: logger)
    {
      let seen = try await database.teamMachinesSeen(in: membership.id)
      let unseen = state.machinesSeen.contains { machine, folded in
        seen[machine, default: 0] < folded
      }
      if place <= order.prunedThrough || unseen {
        try await start(
          from: state, keeping: try await database.sharedStandupIDs(in: membership.id), as: role,
          into: &round)
        return
      }
    }
    try await database.startTeamAgain(
      membership.id, after: order.prunedThrough,
      resending: try await standupsTheServerLost(on: connection))
  }

  /// The shared standups whose last change applied here the server no longer has, and those
  /// with none recorded: what a machine sends again after a restore. Asked before the pull
  /// brings anyone's newer changes: a server restored keeps a beginning of its order, so a
  /// standup whose last change it kept has every change this machine applied to it.
  func standupsTheServerLost(on connection: PostgresConnection) async throws
    -> [Standup.ID]
  {
    let last = try await database.lastTeamChanges(in: membership.id)
    let kept = try await TeamServer.changesStillHeld(
      Array(Set(last.values)), team: membership.team, on: connection, logger: logger)
    return try await database.sharedStandupIDs(in: membership.id).filter { id in
      last[id].map { !kept.contains($0) } ?? true
    }
  }

  /// Starts from the team's compacted state (see ``catchUp(with:from:as:on:into:)``), which
  /// must be there: the history's beginning was pruned.
  func startFromCompactedState(
    as role: String, on connection: PostgresConnection, into round: inout Round
  ) async throws {
    // NB: Only the owner writes or removes a state, and a prune writes one with the pruned
    // beginning in the same transaction: a missing one is a server an administrator changed.
    guard
      let state = try await TeamServer.compactedState(
        team: membership.team, on: connection, logger: logger)
    else {
      throw SyncProblem.schema(.unreadableCompactedState(reason: "it is missing"))
    }
    try await start(from: state, as: role, into: &round)
  }

  /// Makes this machine's shared standups `state`'s, but for those `keeping` names, and its
  /// waiting changes over them again: the one way the engine starts from a compacted state.
  private func start(
    from state: CompactedTeamState, keeping: Set<Standup.ID> = [], as role: String,
    into round: inout Round
  ) async throws {
    logger.info("Starting from the team's compacted state, made through change \(state.through)")
    round.report.merge(
      try await applying {
        try await database.startFromCompactedTeamState(
          state, in: membership.id, as: role, keeping: keeping)
      })
  }
}
