import Foundation
import GRDB
import IdentifiedCollections
import Models

// A server restored from an older backup: this machine's changes it lost are pushed again; when
// it lost changes this machine applied, this machine replays its order from the beginning,
// applying only what is new here, and sends again the standups whose last change it lost.

extension TeamLedger {
  /// The number of the newest change of this machine's `team`'s server committed and that has
  /// not come back in a pull yet, or `nil` when there is none.
  static func newestPushed(in team: TeamMembership.ID, _ db: Database) throws -> Int64? {
    try Int64.fetchOne(
      db, sql: "SELECT max(sequence) FROM teamOutbox WHERE membership = ? AND pushed = 1",
      arguments: [team.rawValue])
  }

  /// Marks this machine's changes for `team` after machine number `machineSequence` as not
  /// pushed: the server no longer has them (it was restored from an older backup), so the next
  /// push sends them again.
  static func notPushed(
    in team: TeamMembership.ID, after machineSequence: Int64, _ db: Database
  ) throws {
    // NB: The outbox's `sequence` column is the machine number.
    try db.execute(
      sql: "UPDATE teamOutbox SET pushed = 0 WHERE membership = ? AND pushed = 1 AND sequence > ?",
      arguments: [team.rawValue, machineSequence])
  }

  /// Starts again from the server's first change after `prunedThrough` (where its history
  /// begins), because the server has forgotten changes this machine applied (it was restored
  /// from an older backup): the next pull reads its whole order and applies only what is new
  /// here, and ``resend(_:_:)`` then sends again the standups
  /// `lost`: those whose last change applied here the server no longer has, found before the
  /// pull brings anyone's newer changes. (This machine's own changes the server lost before they
  /// came back are pushed again by their own check, ``notPushed(in:after:_:)``.) Nothing here is
  /// deleted.
  ///
  /// A resend still owed (`resharePending`, from a recovery whose round ended before it sent) stays
  /// owed: the engine sends again only while the flag is set. Guarded by
  /// `TeamLedgerTests.startingAgainKeepsAResendStillOwed`.
  static func startAgain(
    _ team: TeamMembership.ID, after prunedThrough: Int64, resending lost: [Standup.ID],
    _ db: Database
  ) throws {
    try db.execute(
      sql: """
        UPDATE teamMembership SET lastSequence = ?, resharePending = resharePending OR ?
        WHERE id = ?
        """,
      arguments: [prunedThrough, !lost.isEmpty, team.rawValue])
    try noteToResend(lost, db)
  }

  /// The last change applied here to each shared standup; a shared standup no pull has
  /// touched yet (shared here, its share not back) has none.
  static func lastChanges(in team: TeamMembership.ID, _ db: Database) throws
    -> [Standup.ID: TeamChangeOrigin]
  {
    var last: [Standup.ID: TeamChangeOrigin] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT l.standupId, l.madeBy, l.machine, l.machineSequence
        FROM teamStandupLastChange AS l JOIN sharedStandup AS s ON s.standupId = l.standupId
        WHERE s.membership = ?
        """, arguments: [team.rawValue])
    {
      guard let id = UUID(uuidString: row["standupId"]), let machine = MemberMachine(row)
      else { continue }
      last[Standup.ID(id)] = TeamChangeOrigin(
        memberMachine: machine, machineSequence: row["machineSequence"])
    }
    return last
  }

  /// After ``startAgain(_:after:resending:_:)`` and a pull of the server's whole order, puts the
  /// standups it named in the outbox again, whole, as they are now: added where the server lacks
  /// them, and given this machine's values where it has them
  /// (``/Models/StandupEdit/init(restating:)``, which removes nothing). Returns how many.
  static func resend(_ team: TeamMembership.ID, _ db: Database) throws -> Int {
    let shared = try sharedIDs(in: team, db)
    let ids = try String.fetchAll(db, sql: "SELECT standupId FROM teamStandupToResend")
      .compactMap { UUID(uuidString: $0).map { Standup.ID($0) } }.filter(shared.contains)
    let standups = try StandupRows.fetch(db, ids: ids).standups
    for standup in standups {
      try addToOutbox(.added([standup]), db)
      try addToOutbox(.edited(standup.id, .init(restating: standup)), db)
    }
    try db.execute(
      sql: """
        DELETE FROM teamStandupToResend WHERE standupId NOT IN (
          SELECT standupId FROM sharedStandup WHERE membership <> ?)
        """,
      arguments: [team.rawValue])
    try db.execute(
      sql: "UPDATE teamMembership SET resharePending = 0 WHERE id = ?", arguments: [team.rawValue])
    return standups.count
  }

  /// Notes `ids` to be sent again, whole, after the pull (``resend(_:_:)``).
  static func noteToResend(_ ids: some Sequence<Standup.ID>, _ db: Database) throws {
    for id in ids {
      try executeCached(
        sql: "INSERT OR IGNORE INTO teamStandupToResend (standupId) VALUES (?)",
        arguments: [id.rawValue.uuidString], db)
    }
  }
}
