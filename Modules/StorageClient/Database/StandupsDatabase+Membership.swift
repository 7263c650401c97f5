public import Foundation
import GRDB
public import Models
public import Tagged

// The teams this machine is in: joining and leaving them, and which standups each shares, as the
// `standups team` commands and the app ask (see `TeamLedger`). Each call is one transaction.
// Every read of the team tables goes through `readingTeam`, which reads them only once they are
// this release's.

extension StandupsDatabase {
  /// The teams this machine has joined, in the order it joined them: none, one, or several.
  public func teamMemberships() throws(StorageError) -> [TeamMembership] {
    try readingTeam(or: []) { db in try TeamMembership.fetchAll(db) }
  }

  /// The membership numbered `id`, or `nil` once this machine has left that team.
  public func teamMembership(_ id: TeamMembership.ID) throws(StorageError) -> TeamMembership? {
    try readingTeam(or: nil) { db in try TeamMembership.fetch(id, db) }
  }

  /// Starts syncing with `team` on `server`, from the start of its order, under a new machine ID,
  /// beside the teams this machine is in already. Joining a team this machine is in again
  /// starts its place again; its shared standups stay shared, and its changes waiting stay.
  @discardableResult
  public func joinTeam(server: String, team: String, machine: UUID) throws(StorageError)
    -> TeamMembership
  {
    let queue = try writableQueue()
    return try commit(queue) { db in
      try db.execute(
        sql: """
          INSERT INTO teamMembership (server, team, machine) VALUES (?, ?, ?)
          ON CONFLICT (server, team) DO UPDATE SET machine = excluded.machine,
            lastSequence = 0, lastSyncedAt = NULL, resharePending = 0
          """,
        arguments: [server, team, machine.uuidString])
      let id = try TeamMembership.ID(
        Int64.fetchOne(
          db, sql: "SELECT id FROM teamMembership WHERE server = ? AND team = ?",
          arguments: [server, team]) ?? 0)
      try TeamLedger.empty(TeamLedger.placeTables, of: id, db)
      guard let joined = try TeamMembership.fetch(id, db) else {
        throw DatabaseError(message: "the membership just written cannot be read")
      }
      return joined
    }
  }

  /// Stops syncing with the team `id` names: its standups stay here as personal ones, and
  /// changes that were waiting for its server are dropped; the other teams are untouched.
  /// Returns how many standups here were its.
  ///
  /// A join whose sync failed passes the copies that sync kept apart (`puttingBack`): in the same
  /// transaction, each goes back in its standup's place, so that this machine's own standups are
  /// as they were before the join (`TeamLedger.putBackOwnCopies`).
  @discardableResult
  public func leaveTeam(
    _ id: TeamMembership.ID, puttingBack kept: [TeamPullReport.KeptCopy] = []
  ) throws(StorageError) -> Int {
    let queue = try writableQueue()
    defer { outboxesPulledWith[id] = nil }
    return try commit(queue) { db in
      let shared = try TeamLedger.sharedIDs(in: id, db).count
      try TeamLedger.empty(TeamLedger.placeTables + TeamLedger.standupTables, of: id, db)
      for table in ["sharedStandup", "teamOutbox"] {
        try db.execute(sql: "DELETE FROM \(table) WHERE membership = ?", arguments: [id.rawValue])
      }
      try db.execute(sql: "DELETE FROM teamMembership WHERE id = ?", arguments: [id.rawValue])
      try TeamLedger.putBackOwnCopies(kept, db)
      return shared
    }
  }

  /// Makes standups `team`'s, whole, with their past meetings; returns those that were not
  /// shared before. A standup shared with another team stays that team's: a standup is in one
  /// team at most.
  @discardableResult
  public func share(_ ids: [Standup.ID], with team: TeamMembership.ID) throws(StorageError)
    -> [Standup.ID]
  {
    let queue = try writableQueue()
    return try commit(queue) { db in
      try TeamLedger.share(StandupRows.fetch(db, ids: ids).standups.elements, with: team, db)
    }
  }

  /// The IDs of `team`'s shared standups.
  public func sharedStandupIDs(in team: TeamMembership.ID) throws(StorageError)
    -> Set<Standup.ID>
  {
    try readingTeam(or: []) { db in try TeamLedger.sharedIDs(in: team, db) }
  }

  /// The team of each shared standup this machine holds, whichever team it is: what the list
  /// marks.
  public func sharedStandupTeams() throws(StorageError) -> [Standup.ID: TeamMembership.ID] {
    try readingTeam(or: [:]) { db in try TeamLedger.sharedTeams(db) }
  }

  /// Reads the team tables as this release makes them; `absent` when the database is only read
  /// and an earlier release made it, or was not opened.
  ///
  /// When the database is an earlier release's and opening could not migrate it yet, throws
  /// why (``openingProblem``): another program holds the write lock
  /// (``StorageError/isWaitingForAnotherProgram``), or the disk is full. Its team tables are
  /// not yet this release's, and reading them would fail on a column they do not have yet.
  func readingTeam<T>(
    or absent: T, _ work: (Database) throws -> T
  ) throws(StorageError) -> T {
    guard let queue else { return absent }
    let isReadWrite = access == .readWrite
    // NB: Opening finished, the schema is this release's: the usual read asks nothing more.
    var isSchemaThisReleases = isOpeningFinished && isReadWrite
    if !isSchemaThisReleases {
      isSchemaThisReleases = try reading(queue) { db in
        try Schema.migrator.hasCompletedMigrations(db)
      }
    }
    guard isSchemaThisReleases else {
      guard isReadWrite else { return absent }
      throw openingProblem
        ?? .unreadable(
          FileProblem(
            path: path ?? ":memory:", reason: .busy,
            technicalDetail: "an earlier release's schema, not yet migrated: the write lock is held"
          ))
    }
    return try reading(queue, work)
  }
}
