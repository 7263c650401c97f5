import StorageClient

// A round on its own, as `standups sync` and `standups team join` make it: a connection for the
// round, a wait for a number still missing, and a removal told. The open app's engine makes its
// rounds on one connection kept open (TeamSyncEngine+Listening.swift).

extension TeamSyncEngine {
  /// Pushes everything waiting and pulls everything new, once.
  /// A pull stopped at a missing number waits for it, and then has the team pass it: at most a
  /// few seconds.
  ///
  /// - Throws: ``SyncProblem``.
  public func syncOnce() async throws(SyncProblem) -> Round {
    do {
      return try await withOpenConnection { open in
        var round = try await open.inTurn {
          try await TeamServer.checkAccess(
            team: self.membership.team, role: open.role, on: open.connection,
            logger: self.logger)
          return try await self.round(on: open.connection, role: open.role)
        }
        for _ in 1...3 where round.gap != nil {
          try await Task.sleep(for: Self.gapGrace)
          let again = try await open.inTurn {
            try await self.round(on: open.connection, role: open.role)
          }
          round.pushed += again.pushed
          round.pulled += again.pulled
          round.report.merge(again.report)
          round.gap = again.gap
          // NB: A later round may catch up with a copy an earlier one kept apart.
          round.report.keptApart = try await self.removeCopiesTheTeamCaughtUpWith(
            round.report.keptApart)
        }
        return round
      }
    } catch {
      throw await leavingIfRemoved(error)
    }
  }

  /// Connects and checks that the role may use the team, changing nothing.
  ///
  /// - Throws: ``SyncProblem``.
  public func checkAccess() async throws(SyncProblem) {
    let team = membership.team
    let logger = self.logger
    _ = try await withOpenConnection { open in
      try await open.inTurn {
        try await TeamServer.checkAccess(
          team: team, role: open.description.user, on: open.connection, logger: logger)
      }
    }
  }
}
