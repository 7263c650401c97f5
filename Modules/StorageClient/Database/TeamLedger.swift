import Foundation
import GRDB
import IdentifiedCollections
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
/// machine's own waiting changes again (``applyPulled(_:through:as:at:makeID:_:)``). Every change sets
/// fields, adds or removes whole attendees and meetings, so applying one twice is applying it
/// once: every machine ends with the server's order applied, and its own waiting changes last —
/// which is where the server will order them when they are pushed.
enum TeamLedger {
  /// The tables that say where this machine is in its team's order: which team, under which
  /// machine ID, the last change applied of each machine's and to each standup, and what a
  /// restore left to send again. A join (a new machine ID, from the start of the order) starts
  /// them again; what is shared and what waits stays.
  static let placeTables = [
    "teamMembership", "teamMachineSeen", "teamStandupLastChange", "teamStandupToResend",
  ]

  /// Every table of the team's here (Schema.swift says what each holds): leaving empties them
  /// all, and the standups stay as personal ones. The values the team replaced
  /// (`replacedValue`) stay, to be put back or away.
  static let tables =
    placeTables + [
      "sharedStandup", "teamOutbox", "teamDeletionQuestion", "teamFieldOwner", "teamOwnChange",
      "teamDeletedBy",
    ]

  /// Keeps `change` for the team when the team shares a standup it touches.
  static func keep(_ change: StandupsChange, _ db: Database) throws {
    guard let membership = try TeamMembership.fetch(db) else { return }
    let ids = change.standupIDs.map(\.rawValue.uuidString)
    guard try sharedCount(ids, db) > 0 else { return }
    try addToOutbox(change, basedOn: membership.lastSequence, db)
  }

  /// Puts `change` in the outbox, made at `basedOn` (the last change of the team's this machine
  /// had applied): the one way a change starts on its way to the team.
  static func addToOutbox(_ change: StandupsChange, basedOn: Int64, _ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
      arguments: [try encode(change), basedOn])
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
      try addToOutbox(.added([standup]), basedOn: membership.lastSequence, db)
    }
    return shared
  }

  /// The IDs of the shared standups this machine holds: a shared standup deleted here stays
  /// marked (its deletion went to the team as a shared one's), and is not counted.
  static func sharedIDs(_ db: Database) throws -> Set<Standup.ID> {
    var ids = Set<Standup.ID>()
    for text in try String.fetchAll(
      db, sql: "SELECT s.standupId FROM sharedStandup AS s JOIN standup AS t ON t.id = s.standupId")
    {
      if let uuid = UUID(uuidString: text) { ids.insert(Standup.ID(uuid)) }
    }
    return ids
  }

  /// The changes waiting for the server, oldest first: not pushed yet, or (`includingPushed`)
  /// also pushed and not yet pulled back, which the server will order after everything pulled.
  static func waiting(limit: Int, includingPushed: Bool = false, _ db: Database) throws
    -> [WaitingTeamChange]
  {
    try Row.fetchAll(
      db,
      sql: """
        SELECT sequence, change, basedOn FROM teamOutbox
        WHERE pushed = 0 OR ? ORDER BY sequence LIMIT ?
        """,
      arguments: [includingPushed, limit]
    ).map { row in
      WaitingTeamChange(
        machineSequence: row["sequence"], change: row["change"], basedOn: row["basedOn"])
    }
  }

  /// The number of the newest change of this machine's the server committed and that has not
  /// come back in a pull yet, or `nil` when there is none.
  static func newestPushed(_ db: Database) throws -> Int64? {
    try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM teamOutbox WHERE pushed = 1")
  }

  /// Marks this machine's changes numbered after `sequence` as not pushed: the server no longer
  /// has them (it was restored from an older backup), so the next push sends them again.
  static func notPushed(after sequence: Int64, _ db: Database) throws {
    try db.execute(
      sql: "UPDATE teamOutbox SET pushed = 0 WHERE pushed = 1 AND sequence > ?",
      arguments: [sequence])
  }

  /// How many changes wait for the server.
  static func waitingCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM teamOutbox WHERE pushed = 0") ?? 0
  }

  /// This machine's outbox, pushed rows too, read and decoded once for a pull; its own changes
  /// coming back in the pull take their rows out of it as they do out of the table. (A row that
  /// cannot be read is left out, as every use of it would skip it.)
  struct Outbox {
    /// Each row, with the fields its change sets (``ownedFields(of:)``), named once per pull.
    var entries:
      [(machineSequence: Int64, basedOn: Int64, change: StandupsChange, fields: [(String, String)])]

    init(_ db: Database) throws {
      entries = try TeamLedger.waiting(limit: .max, includingPushed: true, db).compactMap {
        entry in
        decode(entry.change).map { (entry.machineSequence, entry.basedOn, $0, ownedFields(of: $0)) }
      }
    }

    mutating func remove(machineSequence: Int64) {
      entries.removeAll { $0.machineSequence == machineSequence }
    }
  }

  /// Writes `change` in a savepoint; returns why it was refused when its content breaks a rule
  /// or meets a standup that cannot be read, which writes nothing. Any other failure (the disk
  /// is full) is thrown: the whole pull must fail, not be counted as done.
  static func writeUnlessRefused(_ change: StandupsChange, _ db: Database) throws
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

  /// Runs `sql` with a statement prepared once per connection: a pull runs these for every
  /// change it applies.
  static func executeCached(
    sql: String, arguments: StatementArguments, _ db: Database
  ) throws {
    try db.cachedStatement(sql: sql).execute(arguments: arguments)
  }

  private static func decode(_ text: String) -> StandupsChange? {
    try? read(text).get()
  }

  /// A pulled change, or why it cannot be applied: a value no standup may hold (a member wrote
  /// the row by hand) is named; anything else is a change of a release this one does not know.
  static func read(_ text: String) -> Result<StandupsChange, UnreadableChange> {
    do {
      return .success(try JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8)))
    } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
      return .failure(UnreadableChange(reason: context.debugDescription))
    } catch {
      return .failure(UnreadableChange(reason: "it is not a change this release can read"))
    }
  }

  static func megabytes(_ bytes: Int) -> String {
    "\((Double(bytes) / 1_048_576).formatted(.number.precision(.fractionLength(1)))) MB"
  }

  struct UnreadableChange: Error {
    var reason: String
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

extension StandupsChange {
  /// Whether applying the change makes a standup deleted in the team's order stored again on
  /// every machine: it adds the standup whole, or records a meeting of it, which carries it.
  var bringsBack: Bool {
    switch self {
    case .added, .meetingRecorded: true
    case .edited, .deleted: false
    }
  }
}
