import Foundation
import GRDB
import IdentifiedCollections
import Models
import Tagged

/// The merge: what this machine's database keeps for its team, and how changes the team's
/// server ordered are applied to it.
///
/// Team sync has two halves. `TeamSync`'s engine talks to the server: it pushes, learns the
/// team's order, and pulls. This type is the other half, the one that writes this machine's
/// database, and every step of it runs inside one SQLite transaction of ``StandupsDatabase``:
///
/// - **An edit keeps its copy for the team.** The transaction that commits a change to a shared
///   standup (``StandupsDatabase/apply(_:)``) adds it to the *outbox*, with the place in the
///   team's order this machine had reached (its *base*). A change is on its way to the team
///   exactly when it is stored: a crash between the two cannot happen.
/// - **A push is noted, not forgotten.** The engine reads the outbox
///   (``StandupsDatabase/waitingTeamChanges(limit:)``) and notes what the server took
///   (``StandupsDatabase/teamChangesPushed(through:)``); a change leaves the outbox only when it
///   comes back in a pull, ordered, or when a compacted state the machine starts from holds it.
/// - **A pull is applied, then this machine's waiting changes again**
///   (``StandupsDatabase/applyPulledTeamChanges(_:through:as:)``). Every change sets fields and
///   adds or removes whole attendees and meetings, so applying one twice is applying it once:
///   every machine ends with the server's order applied, and its own waiting changes last, which
///   is where the server will order them.
/// - **A value another member's change replaced unseen is told** to this machine's user, with
///   who replaced it, to be put back or away (``StandupsDatabase/valuesReplacedByTheTeam()``).
/// - **A deletion that meets a change here asks.** The standup stays until the user answers
///   (``StandupsDatabase/teamDeletionQuestions()``,
///   ``StandupsDatabase/answerTeamDeletion(of:keep:)``); either answer ends on the server's order.
/// - **A standup of this machine's own that the team shares gives way.** The team's takes its
///   place, and this machine's is kept apart as a personal copy, told in the pull's
///   ``TeamPullReport``.
/// - **The recoveries start again, keeping what is here.** A machine starts from the team's
///   compacted state (``StandupsDatabase/startFromCompactedTeamState(_:as:keeping:)``), or pulls
///   the whole order again after a restore
///   (``StandupsDatabase/rewindTeam(to:resending:)``, ``StandupsDatabase/resendTeamStandups()``),
///   and neither deletes anything that was not the team's to delete.
///
/// The engine reaches the ledger only through those methods of ``StandupsDatabase``, each one
/// transaction; the ledger's own functions take the transaction's database, and are internal.
///
/// ```swift
/// let database = StandupsDatabase(path: path)
/// try await database.joinTeam(server: url, team: "design", machine: UUID())
/// try await database.share([standup.id])
/// let waiting = try await database.waitingTeamChanges(limit: 1_000)
/// ```
public enum TeamLedger {
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

  /// Writes `change` in a savepoint, after `prepare`; returns why it was refused when `prepare`
  /// says so, or when its content breaks a rule or meets a standup that cannot be read, which
  /// writes nothing, `prepare`'s work included. Any other failure (the disk is full) is thrown:
  /// the whole pull must fail, not be counted as done.
  static func writeUnlessRefused(
    _ change: StandupsChange, _ db: Database,
    after prepare: (Database) throws -> String? = { _ in nil }
  ) throws -> String? {
    var refusal: String?
    do {
      try db.inSavepoint {
        refusal = try prepare(db)
        guard refusal == nil else { return .rollback }
        _ = try StandupsDatabase.write(change, replacing: nil, db)
        return .commit
      }
      return refusal
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
