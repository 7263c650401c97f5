public import Foundation
import GRDB
public import Models
public import Tagged

// A team's server: what the sync engine and the `standups team` commands ask of this machine's
// database (see `TeamLedger`). Each call is one transaction.

extension StandupsDatabase {
  /// The team this machine syncs with, or `nil` when it has joined none.
  public func teamMembership() throws(StorageError) -> TeamMembership? {
    try readingTeam(or: nil) { db in try TeamMembership.fetch(db) }
  }

  /// Starts syncing with `team` on `server`, from the start of its order, under a new machine ID.
  /// Replaces a membership there was; shared standups stay shared.
  public func joinTeam(server: String, team: String, machine: UUID) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      for table in TeamLedger.placeTables { try db.execute(sql: "DELETE FROM \(table)") }
      try db.execute(
        sql: "INSERT INTO teamMembership (singleton, server, team, machine) VALUES (1, ?, ?, ?)",
        arguments: [server, team, machine.uuidString])
    }
  }

  /// Stops syncing: the team's standups stay here as personal ones, and changes that were
  /// waiting for the server are dropped. Returns how many standups here were shared.
  @discardableResult
  public func leaveTeam() throws(StorageError) -> Int {
    let queue = try writableQueue()
    return try commit(queue) { db in
      let shared = try TeamLedger.sharedIDs(db).count
      for table in TeamLedger.tables { try db.execute(sql: "DELETE FROM \(table)") }
      return shared
    }
  }

  /// Makes standups the team's, whole, with their past meetings; returns those that were not
  /// shared before. Shares nothing before this machine has joined a team.
  @discardableResult
  public func share(_ ids: [Standup.ID]) throws(StorageError) -> [Standup.ID] {
    let queue = try writableQueue()
    return try commit(queue) { db in
      try TeamLedger.share(StandupRows.fetch(db, ids: ids).standups.elements, db)
    }
  }

  /// The IDs of the standups that are the team's.
  public func sharedStandupIDs() throws(StorageError) -> Set<Standup.ID> {
    try readingTeam(or: []) { db in try TeamLedger.sharedIDs(db) }
  }

  /// This machine's changes waiting for the server, oldest first, at most `limit`.
  public func waitingTeamChanges(limit: Int) throws(StorageError) -> [WaitingTeamChange] {
    try readingTeam(or: []) { db in try TeamLedger.waiting(limit: limit, db) }
  }

  /// How many of this machine's changes wait for the server.
  public func waitingTeamChangeCount() throws(StorageError) -> Int {
    try readingTeam(or: 0) { db in try TeamLedger.waitingCount(db) }
  }

  /// Notes that the server has the waiting changes up to `sequence`; each is forgotten when it
  /// comes back in a pull.
  public func teamChangesPushed(through sequence: Int64) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      try db.execute(
        sql: "UPDATE teamOutbox SET pushed = 1 WHERE sequence <= ?", arguments: [sequence])
    }
  }

  /// The number of the newest change of this machine's the server committed and that has not
  /// come back in a pull yet, or `nil` when there is none.
  public func newestPushedTeamChange() throws(StorageError) -> Int64? {
    try readingTeam(or: nil) { db in try TeamLedger.newestPushed(db) }
  }

  /// Marks this machine's changes numbered after `sequence` as not pushed, because the server no
  /// longer has them: the next push sends them again.
  public func teamChangesNotPushed(after sequence: Int64) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in try TeamLedger.notPushed(after: sequence, db) }
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
    through sequence: Int64,
    as role: String
  ) throws(StorageError) -> TeamPullReport {
    let queue = try writableQueue()
    let now = options.now()
    let makeID = options.makeMeetingID
    return try commit(queue) { db in
      try TeamLedger.applyPulled(pulled, through: sequence, as: role, at: now, makeID: makeID, db)
    }
  }

  /// Starts from the team's compacted state instead of the changes it folds in, which the
  /// server may no longer have: the state's standups replace the shared standups here, and this
  /// machine's changes still waiting are applied over them again, in one transaction
  /// (`TeamLedger.startFrom`). `role` is the role this machine connects as: its changes the state
  /// holds leave the outbox. The standups `keeping` names stay as they are, and are sent again
  /// by ``resendTeamStandups()``.
  public func startFromCompactedTeamState(
    _ state: CompactedTeamState, as role: String, keeping: Set<Standup.ID> = []
  ) throws(StorageError) -> TeamPullReport {
    let queue = try writableQueue()
    let now = options.now()
    let makeID = options.makeMeetingID
    return try commit(queue) { db in
      try TeamLedger.startFrom(state, as: role, keeping: keeping, at: now, makeID: makeID, db)
    }
  }

  /// The last change applied here of each machine's, numbered as that machine numbers them:
  /// empty until a pull has applied one (or when an earlier release did the pulling).
  public func teamChangesSeen() throws(StorageError) -> [MemberMachine: Int64] {
    try readingTeam(or: [:]) { db in try TeamLedger.machinesSeen(db) }
  }

  /// Starts again from the first change the server holds, after `prunedThrough`, because the
  /// server has forgotten changes this machine applied (it was restored from an older backup):
  /// the next pull applies only what is new here, and ``resendTeamStandups()`` then sends again
  /// the standups `lost`, whose last change the server no longer has. Nothing here is deleted.
  public func rewindTeam(to prunedThrough: Int64, resending lost: [Standup.ID])
    throws(StorageError)
  {
    let queue = try writableQueue()
    try commit(queue) { db in try TeamLedger.rewind(to: prunedThrough, resending: lost, db) }
  }

  /// The last change applied here to each shared standup, as the server names it; a standup
  /// shared here whose share has not come back has none.
  public func lastTeamChanges() throws(StorageError) -> [Standup.ID: TeamChangeOrigin] {
    try readingTeam(or: [:]) { db in try TeamLedger.lastChanges(db) }
  }

  /// After ``rewindTeam(to:resending:)`` and a whole pull, keeps the standups it named for the
  /// team again, whole, as they are now; returns how many.
  public func resendTeamStandups() throws(StorageError) -> Int {
    let queue = try writableQueue()
    return try commit(queue) { db in try TeamLedger.resend(db) }
  }

  /// The values of this machine's that another machine's change replaced, still to be put
  /// away: what `standups team status` lists.
  public func valuesReplacedByTheTeam() throws(StorageError) -> [ReplacedValue] {
    try readingTeam(or: []) { db in
      try ReplacedValueRecord.fetchAll(db, replacedBy: .team)
    }
  }

  /// Reads the team tables; `absent` when the database has none (it is only read, and an
  /// earlier release made it) or was not opened.
  private func readingTeam<T>(
    or absent: T, _ work: (Database) throws -> T
  ) throws(StorageError) -> T {
    guard let queue else { return absent }
    return try reading(queue) { db in
      try db.tableExists("teamMembership") ? try work(db) : absent
    }
  }
}
