import Foundation
import GRDB
import Models
import Tagged

/// What this machine's database keeps for a team's server: which team, which standups are the
/// team's, and the changes to them the server has not had yet.
///
/// Every change to a shared standup is kept in `teamOutbox` by the transaction that commits it
/// (``keep(_:_:)``), so a change is on its way to the team exactly when it is stored: a crash
/// between the two cannot happen. The sync engine pushes the outbox in order and deletes what
/// the server acknowledged; the server refuses a change it already has, so a push cut short and
/// made again stores nothing twice.
///
/// Changes the server ordered are applied on top of what this machine holds, and then this
/// machine's own waiting changes again (``applyPulled(_:through:at:_:)``). Every change sets
/// fields, adds or removes whole attendees and meetings, so applying one twice is applying it
/// once: every machine ends with the server's order applied, and its own waiting changes last —
/// which is where the server will order them when they are pushed.
enum TeamLedger {
  /// Keeps `change` for the team when the team shares a standup it touches.
  static func keep(_ change: StandupsChange, _ db: Database) throws {
    guard let membership = try TeamMembership.fetch(db) else { return }
    let ids = change.standupIDs.map(\.rawValue.uuidString)
    guard try sharedCount(ids, db) > 0 else { return }
    try db.execute(
      sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
      arguments: [try encode(change), membership.lastSequence])
  }

  /// Makes standups the team's, and keeps each, whole, for the team: returns the IDs that were
  /// not shared before.
  static func share(_ standups: [Standup], _ db: Database) throws -> [Standup.ID] {
    guard let membership = try TeamMembership.fetch(db) else { return [] }
    var shared: [Standup.ID] = []
    for standup in standups {
      try db.execute(
        sql: "INSERT OR IGNORE INTO sharedStandup (standupId) VALUES (?)",
        arguments: [standup.id.rawValue.uuidString])
      guard db.changesCount > 0 else { continue }
      shared.append(standup.id)
      try db.execute(
        sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
        arguments: [try encode(.added([standup])), membership.lastSequence])
    }
    return shared
  }

  /// The IDs of the shared standups.
  static func sharedIDs(_ db: Database) throws -> Set<Standup.ID> {
    var ids = Set<Standup.ID>()
    for text in try String.fetchAll(db, sql: "SELECT standupId FROM sharedStandup") {
      if let uuid = UUID(uuidString: text) { ids.insert(Standup.ID(uuid)) }
    }
    return ids
  }

  /// The changes waiting for the server, oldest first.
  static func waiting(limit: Int, _ db: Database) throws -> [WaitingTeamChange] {
    try Row.fetchAll(
      db, sql: "SELECT sequence, change, basedOn FROM teamOutbox ORDER BY sequence LIMIT ?",
      arguments: [limit]
    ).map { row in
      WaitingTeamChange(sequence: row["sequence"], change: row["change"], basedOn: row["basedOn"])
    }
  }

  /// How many changes wait for the server.
  static func waitingCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM teamOutbox") ?? 0
  }

  /// Applies the changes the server ordered after the last one applied, then this machine's
  /// waiting changes to the same standups again, in one transaction. A change that cannot be
  /// read or would break a rule is skipped, named in the report, and the rest go on.
  static func applyPulled(
    _ pulled: [PulledTeamChange],
    through sequence: Int64,
    at now: Date,
    _ db: Database
  ) throws -> TeamPullReport {
    var report = TeamPullReport()
    let machine = try TeamMembership.fetch(db)?.machine
    var touched = Set<Standup.ID>()
    for change in pulled {
      guard let decoded = decode(change.change) else {
        report.skipped.append(
          TeamPullReport.Skipped(
            sequence: change.sequence, reason: "it is not a change this release can read"))
        continue
      }
      if let problem = try writeUnlessRefused(decoded, db) {
        report.skipped.append(TeamPullReport.Skipped(sequence: change.sequence, reason: problem))
        continue
      }
      for id in decoded.standupIDs {
        touched.insert(id)
        try db.execute(
          sql: "INSERT OR IGNORE INTO sharedStandup (standupId) VALUES (?)",
          arguments: [id.rawValue.uuidString])
      }
      if change.machine != machine {
        report.standupIDs.formUnion(decoded.standupIDs)
      }
    }
    if !touched.isEmpty {
      for waiting in try waiting(limit: .max, db) {
        guard let decoded = decode(waiting.change),
          decoded.standupIDs.contains(where: touched.contains)
        else { continue }
        _ = try writeUnlessRefused(decoded, db)
      }
    }
    try db.execute(
      sql: "UPDATE teamMembership SET lastSequence = max(lastSequence, ?), lastSyncedAt = ?",
      arguments: [sequence, now.timeIntervalSinceReferenceDate])
    return report
  }

  /// Writes `change` in a savepoint; returns why it was refused when its content breaks a rule
  /// or meets a standup that cannot be read, which writes nothing. Any other failure (the disk
  /// is full) is thrown: the whole pull must fail, not be counted as done.
  private static func writeUnlessRefused(_ change: StandupsChange, _ db: Database) throws
    -> String?
  {
    do {
      try db.inSavepoint {
        _ = try StandupsDatabase.write(change, replacing: nil, db)
        return .commit
      }
      return nil
    } catch let error as StorageError {
      return error.description
    } catch let error as UnreadableStandup {
      return "“\(error.title)” is stored in a form this release cannot read"
    }
  }

  private static func decode(_ text: String) -> StandupsChange? {
    try? JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8))
  }

  private static func sharedCount(_ ids: [String], _ db: Database) throws -> Int {
    try Int.fetchOne(
      db,
      sql:
        "SELECT count(*) FROM sharedStandup WHERE standupId IN (\(databaseQuestionMarks(count: ids.count)))",
      arguments: StatementArguments(ids)) ?? 0
  }

  private static func encode(_ change: StandupsChange) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(change), as: UTF8.self)
  }
}
