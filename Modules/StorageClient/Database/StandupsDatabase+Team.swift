import Foundation
import GRDB
public import Models
public import Tagged

// A team's server: what the sync engine and the `standups team` commands ask of this machine's
// database (see `TeamLedger`). Each call is one transaction.

extension StandupsDatabase {
  /// This machine's changes waiting for `team`'s server, oldest first, at most `limit`.
  public func waitingTeamChanges(in team: TeamMembership.ID, limit: Int) throws(StorageError)
    -> [WaitingTeamChange]
  {
    try readingTeam(or: []) { db in try TeamLedger.waiting(in: team, limit: limit, db) }
  }

  /// How many of this machine's changes wait for `team`'s server.
  public func waitingTeamChangeCount(in team: TeamMembership.ID) throws(StorageError) -> Int {
    try readingTeam(or: 0) { db in try TeamLedger.waitingCount(in: team, db) }
  }

  /// How many of this machine's changes wait for a server, whichever team's.
  public func waitingTeamChangeCount() throws(StorageError) -> Int {
    try readingTeam(or: 0) { db in try TeamLedger.waitingCount(in: nil, db) }
  }

  /// Notes that `team`'s server has the waiting changes up to `sequence`; each is forgotten
  /// when it comes back in a pull.
  public func teamChangesPushed(in team: TeamMembership.ID, through sequence: Int64)
    throws(StorageError)
  {
    let queue = try writableQueue()
    try commit(queue) { db in
      try db.execute(
        sql: "UPDATE teamOutbox SET pushed = 1 WHERE membership = ? AND sequence <= ?",
        arguments: [team.rawValue, sequence])
    }
  }

  /// The number of the newest change of this machine's `team`'s server committed and that has
  /// not come back in a pull yet, or `nil` when there is none.
  public func newestPushedTeamChange(in team: TeamMembership.ID) throws(StorageError) -> Int64? {
    try readingTeam(or: nil) { db in try TeamLedger.newestPushed(in: team, db) }
  }

  /// Marks this machine's changes for `team` numbered after `sequence` as not pushed, because
  /// its server no longer has them: the next push sends them again.
  public func teamChangesNotPushed(in team: TeamMembership.ID, after sequence: Int64)
    throws(StorageError)
  {
    let queue = try writableQueue()
    try commit(queue) { db in try TeamLedger.notPushed(in: team, after: sequence, db) }
  }

  /// The standups another member deleted while this machine had changed them, kept here until
  /// the user answers (``answerTeamDeletion(of:keep:)``).
  public func teamDeletionQuestions() throws(StorageError) -> [TeamDeletionQuestion] {
    try readingTeam(or: []) { db in try TeamLedger.deletionQuestions(db) }
  }

  /// Keeps a standup another member deleted, for the whole team as it is here, or lets it go;
  /// returns whether it was still asked about. A question another instance of the app answered
  /// first takes no second answer: this one changes nothing, and returns `false`.
  @discardableResult
  public func answerTeamDeletion(of id: Standup.ID, keep: Bool) throws(StorageError) -> Bool {
    let queue = try writableQueue()
    return try commit(queue) { db in try TeamLedger.answerDeletion(of: id, keep: keep, db) }
  }

  /// Applies changes in the server's order, up to and including `sequence`, then this machine's
  /// waiting changes again, in one transaction (``TeamLedger``, the merge). The app shows them as it
  /// shows another instance's commits. `role` is the role this machine connects as: its own
  /// changes are those of this machine's ID that `role` made.
  public func applyPulledTeamChanges(
    _ pulled: [PulledTeamChange],
    in team: TeamMembership.ID,
    through sequence: Int64,
    as role: String
  ) throws(StorageError) -> TeamPullReport {
    let queue = try writableQueue()
    let now = options.now()
    let makeID = options.makeMeetingID
    return try commit(queue) { db in
      try TeamLedger.applyPulled(
        pulled, in: team, through: sequence, as: role, at: now, makeID: makeID, db)
    }
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
  public func teamChangesSeen(in team: TeamMembership.ID) throws(StorageError)
    -> [MemberMachine: Int64]
  {
    try readingTeam(or: [:]) { db in try TeamLedger.machinesSeen(in: team, db) }
  }

  /// Starts again from the first change the server holds, after `prunedThrough`, because the
  /// server has forgotten changes this machine applied (it was restored from an older backup):
  /// the next pull applies only what is new here, and ``resendTeamStandups(in:)`` then sends again
  /// the standups `lost`, whose last change the server no longer has. Nothing here is deleted.
  public func rewindTeam(
    _ team: TeamMembership.ID, to prunedThrough: Int64, resending lost: [Standup.ID]
  ) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      try TeamLedger.rewind(team, to: prunedThrough, resending: lost, db)
    }
  }

  /// The last change applied here to each shared standup, as the server names it; a standup
  /// shared here whose share has not come back has none.
  public func lastTeamChanges(in team: TeamMembership.ID) throws(StorageError)
    -> [Standup.ID: TeamChangeOrigin]
  {
    try readingTeam(or: [:]) { db in try TeamLedger.lastChanges(in: team, db) }
  }

  /// After ``rewindTeam(_:to:resending:)`` and a whole pull, keeps the standups it named for the
  /// team again, whole, as they are now; returns how many.
  public func resendTeamStandups(in team: TeamMembership.ID) throws(StorageError) -> Int {
    let queue = try writableQueue()
    return try commit(queue) { db in try TeamLedger.resend(team, db) }
  }

  /// The values of this machine's that another machine's change replaced, still to be put
  /// away: what `standups team status` lists.
  public func valuesReplacedByTheTeam() throws(StorageError) -> [ReplacedValue] {
    try readingTeam(or: []) { db in
      try ReplacedValueRecord.fetchAll(db, replacedBy: .team)
    }
  }
}
