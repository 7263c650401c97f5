import Foundation
import Models
import PostgresNIO
import StorageClient

// The recoveries a round adds to the ordinary path (push, the team's order, pull, report): a
// server that lost changes this machine pushed, one restored from an older backup, and a
// history the owner pruned. Each is looked for in every round, and each costs a statement or
// nothing when there is nothing to recover from. TeamSync's article says what each keeps.

extension TeamSyncEngine {
  /// Brings this machine onto the team's `order` when the server changed under it, before the
  /// pull; returns whether the round sends standups again after the pull.
  ///
  /// - When the server has forgotten changes this machine applied (``serverForgot(place:order:on:)``),
  ///   the machine starts again from the server's first change (``startAgain(at:order:as:on:into:)``).
  /// - When the owner pruned its place from the history, or it has never pulled from a team
  ///   whose history was compacted, it starts from the compacted state rather than from each
  ///   change (`StorageClient.TeamLedger.startFrom`).
  /// - Standups a recovery kept are sent again after the pull, also when an earlier round was
  ///   ended before it could send them (`resharePending`).
  func catchUp(
    with order: TeamServer.Order, from here: TeamMembership?, as role: String,
    on connection: PostgresConnection, into round: inout Round
  ) async throws -> Bool {
    let place = here?.lastSequence ?? 0
    let forgot = try await serverForgot(place: place, order: order, on: connection)
    if forgot {
      logger.warning("The team's server has forgotten changes this machine applied")
      try await startAgain(at: place, order: order, as: role, on: connection, into: &round)
    } else if place < order.prunedThrough
      || (here?.lastSyncedAt == nil && place < order.compactedThrough)
    {
      try await startFromCompactedState(as: role, on: connection, into: &round)
    }
    return forgot || here?.resharePending == true
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
    let seen = try await database.teamChangesSeen(in: membership.id)
    guard place > order.prunedThrough else {
      let known = try await TeamServer.newestChanges(
        of: Array(seen.keys), team: membership.team, on: connection, logger: logger)
      return seen.contains { machine, applied in known[machine, default: 0] < applied }
    }
    guard let found = order.atPlace else { return true }
    return !seen.isEmpty && found.machineSequence > seen[found.machine, default: 0]
  }

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
      let seen = try await database.teamChangesSeen(in: membership.id)
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
    try await database.rewindTeam(
      membership.id, to: order.prunedThrough,
      resending: try await standupsTheServerLost(on: connection))
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
      try await database.startFromCompactedTeamState(
        state, in: membership.id, as: role, keeping: keeping))
  }
}
