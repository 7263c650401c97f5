import PostgresNIO

// A number missing from the team's order: a pull stops at it (`TeamServer.pull`), and the team
// passes it once it has been missing for longer than a push takes to commit, so that no member
// can hold the others' pulls with a transaction left open. Guarded by `OpenTransactionTests` and
// `ConvergenceTests`.

extension TeamSyncEngine {
  /// Has the team pass `gap` when this engine has waited for it since a round before, at least
  /// ``gapGrace`` ago; returns whether it did. A missing number is nearly always a push being
  /// committed, which fills it within milliseconds; one still missing a second later belongs to
  /// a transaction that failed, skipped it, or is held open, and the team goes on without it.
  func passGapSeenBefore(_ gap: Int64, on connection: PostgresConnection) async throws
    -> Bool
  {
    let now = ContinuousClock.now
    guard let seen = gapSeen, seen.number == gap else {
      gapSeen = (gap, now)
      return false
    }
    guard now - seen.at >= Self.gapGrace else { return false }
    gapSeen = nil
    try await TeamServer.passGaps(team: membership.team, on: connection, logger: logger)
    return true
  }
}
