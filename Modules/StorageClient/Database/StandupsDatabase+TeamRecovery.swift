import Foundation
import GRDB
public import Models
public import Tagged

// What the sync engine's recoveries ask of this machine's database: a server that lost changes
// this machine pushed or applied (restored from an older backup), a history the owner pruned,
// which a machine starts from the team's compacted state instead, and the copies a machine back
// in a team kept apart. Each call is one transaction.

extension StandupsDatabase {
  /// The number of the newest change of this machine's `team`'s server committed and that has
  /// not come back in a pull yet, or `nil` when there is none.
  public func newestPushedTeamChange(in team: TeamMembership.ID) throws(StorageError) -> Int64? {
    try readingTeam(or: nil) { db in try TeamLedger.newestPushed(in: team, db) }
  }

  /// Marks this machine's changes for `team` after machine number `machineSequence` as not
  /// pushed, because its server no longer has them: the next push sends them again.
  public func teamChangesNotPushed(in team: TeamMembership.ID, after machineSequence: Int64)
    throws(StorageError)
  {
    let queue = try writableQueue()
    try commit(queue) { db in try TeamLedger.notPushed(in: team, after: machineSequence, db) }
  }

  /// Starts from the team's compacted state instead of the changes it folds in, which the
  /// server may no longer have: the state's standups replace the shared standups here, and this
  /// machine's changes still waiting are applied over them again, in one transaction
  /// (`TeamLedger.startFrom`). `role` is the role this machine connects as: its changes the state
  /// holds leave the outbox. The standups `keeping` names stay as they are, and are sent again
  /// by ``resendTeamStandups(in:)``.
  public func startFromCompactedTeamState(
    _ state: CompactedTeamState, in team: TeamMembership.ID, as role: String,
    keeping: Set<Standup.ID> = []
  ) throws(StorageError) -> TeamPullReport {
    let queue = try writableQueue()
    let now = options.now()
    let makeID = options.makeMeetingID
    return try commit(queue) { db in
      try TeamLedger.startFrom(
        state, in: team, as: role, keeping: keeping, at: now, makeID: makeID, db)
    }
  }

  /// The last change applied here of each machine's, numbered as that machine numbers them:
  /// empty until a pull has applied one (or when an earlier release did the pulling).
  public func teamMachinesSeen(in team: TeamMembership.ID) throws(StorageError)
    -> [MemberMachine: Int64]
  {
    try readingTeam(or: [:]) { db in try TeamLedger.machinesSeen(in: team, db) }
  }

  /// Starts again from the first change the server holds, after `prunedThrough`, because the
  /// server has forgotten changes this machine applied (it was restored from an older backup):
  /// the next pull applies only what is new here, and ``resendTeamStandups(in:)`` then sends again
  /// the standups `lost`, whose last change the server no longer has. Nothing here is deleted.
  public func startTeamAgain(
    _ team: TeamMembership.ID, after prunedThrough: Int64, resending lost: [Standup.ID]
  ) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      try TeamLedger.startAgain(team, after: prunedThrough, resending: lost, db)
    }
  }

  /// The last change applied here to each shared standup, as the server names it; a standup
  /// shared here whose share has not come back has none.
  public func lastTeamChanges(in team: TeamMembership.ID) throws(StorageError)
    -> [Standup.ID: TeamChangeOrigin]
  {
    try readingTeam(or: [:]) { db in try TeamLedger.lastChanges(in: team, db) }
  }

  /// After ``startTeamAgain(_:after:resending:)`` and a whole pull, sends again the standups it
  /// named, whole, as they are now: each goes into the outbox as a change; returns how many.
  public func resendTeamStandups(in team: TeamMembership.ID) throws(StorageError) -> Int {
    let queue = try writableQueue()
    return try commit(queue) { db in try TeamLedger.resend(team, db) }
  }

  /// Removes the personal copies a pull kept apart (``TeamPullReport/keptApart``) that hold
  /// nothing the team's standup lacks once the pull has caught up, in one transaction: a machine
  /// back in a team it left, its standup as the team's last changes made it, keeps no copy when
  /// those changes came in a later window than the standup's add. A copy changed since it was
  /// made stays. Returns the copies still kept.
  public func removeCopiesTheTeamCaughtUpWith(
    _ kept: [TeamPullReport.KeptCopy]
  ) throws(StorageError) -> [TeamPullReport.KeptCopy] {
    guard !kept.isEmpty else { return [] }
    let queue = try writableQueue()
    return try commit(queue) { db in
      try TeamLedger.removeCopiesTheTeamCaughtUpWith(kept, db)
    }
  }
}
