import DequeModule
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
/// - **A standup is in one team (TeamSync's rule 1).** A machine may be in several teams; each
///   shared standup is kept under one (`sharedStandup`'s key is the standup), and a change goes
///   only to the outbox of the team its standup is shared with (`addToOutbox`). A pull of one
///   team's order that touches a standup another team shares here is skipped and named, so that
///   no member of one team can reach another team's standup.
/// - **A push is noted, not forgotten.** The engine reads the outbox
///   (``StandupsDatabase/waitingTeamChanges(in:limit:)``) and notes what the server took
///   (``StandupsDatabase/teamChangesPushed(in:through:)``); a change leaves the outbox only when it
///   comes back in a pull, ordered, or when a compacted state the machine starts from holds it.
/// - **A pull is applied, then this machine's waiting changes again**
///   (``StandupsDatabase/applyPulledTeamChanges(_:in:through:as:)``). Every change sets fields and
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
///   compacted state (``StandupsDatabase/startFromCompactedTeamState(_:in:as:keeping:)``), or
///   pulls the whole order again after a restore
///   (``StandupsDatabase/startTeamAgain(_:after:resending:)``,
///   ``StandupsDatabase/resendTeamStandups(in:)``), and neither deletes anything that was not the
///   team's to delete.
///
/// The engine reaches the ledger only through those methods of ``StandupsDatabase``, each one
/// transaction; the ledger's own functions take the transaction's database, and are internal.
///
/// ```swift
/// let database = StandupsDatabase(path: path)
/// let design = try await database.joinTeam(server: url, team: "design", machine: UUID())
/// try await database.share([standup.id], with: design.id)
/// let waiting = try await database.waitingTeamChanges(in: design.id, limit: 1_000)
/// ```
public enum TeamLedger {
  /// Adds `change` to the outbox of the team of each standup it touches that is shared: the one
  /// way a change starts on its way to a team. Each team's outbox gets the part of the change about
  /// its own standups, made at the place in that team's order this machine had reached (its
  /// *base*), so that no change carries a standup to a team it is not shared with (TeamSync's
  /// rule 1, ``TeamLedger``).
  static func addToOutbox(_ change: StandupsChange, _ db: Database) throws {
    for (membership, part) in try byTeam(change, db) {
      try db.execute(
        sql: """
          INSERT INTO teamOutbox (membership, change, basedOn)
          SELECT id, ?, lastSequence FROM teamMembership WHERE id = ?
          """,
        arguments: [try encode(part), membership.rawValue])
    }
  }

  /// `change` split by the team each standup it touches is shared with; a standup shared with
  /// none is left out. Only an add may touch several standups.
  private static func byTeam(_ change: StandupsChange, _ db: Database) throws
    -> [(TeamMembership.ID, StandupsChange)]
  {
    let teams = try teams(of: change.standupIDs, db)
    guard case .added(let standups) = change else {
      return change.standupIDs.first.flatMap { teams[$0] }.map { [($0, change)] } ?? []
    }
    var parts: [TeamMembership.ID: [Standup]] = [:]
    for standup in standups {
      if let team = teams[standup.id] { parts[team, default: []].append(standup) }
    }
    return parts.sorted { $0.key < $1.key }.map { ($0.key, .added($0.value)) }
  }

  /// The team each of `ids` is shared with, for those that are.
  static func teams(of ids: [Standup.ID], _ db: Database) throws
    -> [Standup.ID: TeamMembership.ID]
  {
    var teams: [Standup.ID: TeamMembership.ID] = [:]
    let statement = try db.cachedStatement(
      sql: "SELECT membership FROM sharedStandup WHERE standupId = ?")
    for id in ids {
      if let membership = try Int64.fetchOne(statement, arguments: [id.rawValue.uuidString]) {
        teams[id] = TeamMembership.ID(membership)
      }
    }
    return teams
  }

  /// `team`'s changes waiting for the server, oldest first: not pushed yet, or
  /// (`includingPushed`) also pushed and not yet pulled back, which the server will order after
  /// everything pulled.
  static func waiting(
    in team: TeamMembership.ID, limit: Int, includingPushed: Bool = false, _ db: Database
  ) throws -> [WaitingTeamChange] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT sequence, change, basedOn FROM teamOutbox
        WHERE membership = ? AND (pushed = 0 OR ?) ORDER BY sequence LIMIT ?
        """,
      arguments: [team.rawValue, includingPushed, limit]
    ).map { row in
      WaitingTeamChange(
        machineSequence: row["sequence"], change: row["change"], basedOn: row["basedOn"])
    }
  }

  /// How many changes wait for `team`'s server, or for every team's when `team` is `nil`.
  static func waitingCount(in team: TeamMembership.ID?, _ db: Database) throws -> Int {
    try Int.fetchOne(
      db,
      sql: "SELECT count(*) FROM teamOutbox WHERE pushed = 0 AND (? IS NULL OR membership = ?)",
      arguments: [team?.rawValue, team?.rawValue]) ?? 0
  }

  /// This machine's outbox, pushed rows too, read and decoded for a pull; its own changes
  /// coming back in the pull take their rows out of it as they do out of the table. (A row that
  /// cannot be read is left out, as every use of it would skip it.)
  ///
  /// NB: A `Deque` in the order of the machine's numbers, because its changes come back in that
  /// order: the one that came back is the first, and leaves in constant time, so that a pull of
  /// the machine's own thousands of changes (a first share) takes time in proportion to them.
  /// Any other leaves from where it is. Guarded by
  /// `TeamLedgerTests.theOutboxLosesTheChangesThatCameBackWhereverTheyAre`.
  struct Outbox {
    /// Each row, with the text its change was decoded from and the fields the change sets
    /// (``fieldsSet(by:)``).
    var entries:
      Deque<
        (
          machineSequence: Int64, basedOn: Int64, text: String, change: StandupsChange,
          fields: [(String, String)]
        )
      > = []

    /// An empty outbox, which ``readAgain(of:_:)`` fills.
    init() {}

    /// The outbox as it is in `db`, every row decoded.
    init(of team: TeamMembership.ID, _ db: Database) throws {
      try readAgain(of: team, db)
    }

    /// Makes this the outbox as it is in `db`, decoding only the rows it does not already hold
    /// with the same text: each window of a pull reads the outbox again, and would otherwise
    /// decode every waiting change once a window.
    ///
    /// NB: An entry kept is what decoding its row gives, because decoding depends on the text
    /// alone and the text is compared, byte for byte, not trusted: whatever this held before (a
    /// window's transaction rolled back, a row rewritten under its number), the result is
    /// ``init(of:_:)``'s. (Two `String`s are equal when canonically equivalent, whose bytes, and
    /// so the values the change writes, differ.) Guarded by
    /// `TeamLedgerOutboxTests.readingAgainGivesWhatDecodingEveryRowGives`.
    mutating func readAgain(of team: TeamMembership.ID, _ db: Database) throws {
      var held = Dictionary(
        entries.map { ($0.machineSequence, $0) }, uniquingKeysWith: { first, _ in first })
      entries = Deque(
        try TeamLedger.waiting(in: team, limit: .max, includingPushed: true, db)
          .compactMap { row in
            if var entry = held.removeValue(forKey: row.machineSequence),
              entry.text.utf8.elementsEqual(row.change.utf8)
            {
              entry.basedOn = row.basedOn
              return entry
            }
            return (try? TeamLedger.read(row.change).get()).map {
              (row.machineSequence, row.basedOn, row.change, $0, fieldsSet(by: $0))
            }
          })
    }

    /// Takes out the change numbered `machineSequence` on this machine, wherever it is.
    mutating func remove(machineSequence: Int64) {
      if entries.first?.machineSequence == machineSequence {
        entries.removeFirst()
      } else {
        entries.removeAll { $0.machineSequence == machineSequence }
      }
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
      return cannotRead(error)
    }
  }

  /// Why a change of the team's is not applied to a standup stored here that cannot be read.
  static func cannotRead(_ standup: UnreadableStandup) -> String {
    "“\(standup.title)” is stored in a form this release cannot read"
  }

  /// Why a change of one team's about a standup another team shares here is not applied.
  static let anotherTeamsStandup = "it is about a standup shared here with another team"

  /// Notes `id` as shared with `team`, unless it is already shared (with any team).
  static func noteShared(_ id: Standup.ID, in team: TeamMembership.ID, _ db: Database) throws {
    try executeCached(
      sql: "INSERT OR IGNORE INTO sharedStandup (standupId, membership) VALUES (?, ?)",
      arguments: [id.rawValue.uuidString, team.rawValue], db)
  }

  /// Runs `sql` with a statement prepared once per connection: a pull runs these for every
  /// change it applies.
  static func executeCached(
    sql: String, arguments: StatementArguments, _ db: Database
  ) throws {
    try db.cachedStatement(sql: sql).execute(arguments: arguments)
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

  private static func encode(_ change: StandupsChange) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(change), as: UTF8.self)
  }
}
