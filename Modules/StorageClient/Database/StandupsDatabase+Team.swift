import GRDB
public import Tagged

// The sync engine's doors into this machine's database: what its ordinary round asks (see
// `TeamLedger`); what its recoveries ask is StandupsDatabase+TeamRecovery.swift's. Each call is
// one transaction.

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

  /// Notes that `team`'s server has the waiting changes up to machine number `machineSequence`;
  /// each leaves the outbox when it comes back in a pull.
  public func teamChangesPushed(in team: TeamMembership.ID, through machineSequence: Int64)
    throws(StorageError)
  {
    let queue = try writableQueue()
    try commit(queue) { db in
      try db.execute(
        sql: "UPDATE teamOutbox SET pushed = 1 WHERE membership = ? AND sequence <= ?",
        arguments: [team.rawValue, machineSequence])
    }
  }

  /// Applies changes in the server's order, up to and including number `sequence` (the machine's
  /// place once they are applied), then this machine's waiting changes again, in one transaction
  /// (``TeamLedger``, the merge). The app shows them as it shows another instance's commits.
  /// `role` is the role this machine connects as: its own changes are those of this machine's ID
  /// that `role` made.
  public func applyPulledTeamChanges(
    _ pulled: [PulledTeamChange],
    in team: TeamMembership.ID,
    through sequence: Int64,
    as role: String
  ) throws(StorageError) -> TeamPullReport {
    let queue = try writableQueue()
    let now = options.now()
    let makeID = options.makeMeetingID
    var outbox = outboxesPulledWith[team] ?? TeamLedger.Outbox()
    let report = try commit(queue) { db in
      try TeamLedger.applyPulled(
        pulled, in: team, through: sequence, as: role, at: now, makeID: makeID, outbox: &outbox,
        db)
    }
    outboxesPulledWith[team] = outbox
    return report
  }
}
