public import StorageClient

// How an engine's membership ends on its own: the owner removed this machine's role from the
// team, or a join's first sync failed, which puts back the copies of this machine's own standups
// its rounds kept apart. Leaving at a user's word is `StandupsDatabase.leaveTeam`, through
// `standups team leave`.

extension TeamSyncEngine {
  /// Leaves the team after a join whose first ``syncOnce()`` failed, so that the machine's own
  /// standups are as they were before the join: each copy this engine's rounds kept apart goes
  /// back in its standup's place (`StandupsDatabase.leaveTeam(_:puttingBack:)`). The team's
  /// standups the join brought stay, as personal ones, as after any leave.
  ///
  /// ```swift
  /// do { try await engine.syncOnce() } catch { try await engine.leaveAfterAFailedJoin() }
  /// ```
  public func leaveAfterAFailedJoin() async throws(StorageError) {
    // NB: The join's round may still run, abandoned when its connection closed: a write of it
    // under way ends first, so that what it kept apart is put back too.
    await writesEnded()
    _ = try await database.leaveTeam(membership.id, puttingBack: copiesKeptApart)
  }

  /// Returns once no write of the rounds is under way (``applying(_:)``): what they kept apart
  /// is then all in ``copiesKeptApart``.
  func writesEnded() async {
    while writesUnderWay > 0 {
      await withCheckedContinuation { waitingForWrites.append($0) }
    }
  }

  /// How many callers wait for the rounds' writes to end.
  var callersWaitingForWrites: Int { waitingForWrites.count }

  /// `problem`, unless it says this machine's role is no longer in the team: then the machine
  /// leaves the team (its standups stay as personal ones, and nothing more is pushed or
  /// pulled), and the problem is ``SyncProblem/removed(role:team:unsent:)``.
  func leavingIfRemoved(_ problem: SyncProblem) async -> SyncProblem {
    guard case .notAMember(let role, let team) = problem else { return problem }
    let unsent: Int
    do {
      unsent = try await database.waitingTeamChangeCount(in: membership.id)
      _ = try await database.leaveTeam(membership.id)
    } catch {
      return .database(error)
    }
    return .removed(role: role, team: team, unsent: unsent)
  }
}
