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
      WaitingTeamChange(sequence: row["sequence"], change: row["change"], basedOn: row["basedOn"])
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

  /// Whether another machine's deletion, `sequence` in the server's order, deletes a standup
  /// this machine changed without having seen the deletion: a change of its in the outbox
  /// (pushed or not) made before it had pulled that far. The standup then stays here, and the
  /// user is asked (`teamDeletionQuestion`), as when a second instance deletes a standup being
  /// edited.
  ///
  /// A change of this machine's the server ordered before the deletion counts too when the
  /// deleting machine had not pulled it (`basedOn`): `teamOwnChange` keeps the place of this
  /// machine's last change to each standup.
  private static func deletionMeetsChangesHere(
    of id: Standup.ID, at sequence: Int64, basedOn: Int64, _ outbox: Outbox, _ db: Database
  ) throws -> Bool {
    let lastOwn = try Int64.fetchOne(
      db, sql: "SELECT sequence FROM teamOwnChange WHERE standupId = ?",
      arguments: [id.rawValue.uuidString])
    if let lastOwn, lastOwn > basedOn { return true }
    return outbox.entries.contains { entry in
      guard entry.basedOn < sequence, entry.change.standupIDs.contains(id) else { return false }
      if case .deleted = entry.change { return false }
      return true
    }
  }

  /// This machine's outbox, pushed rows too, read and decoded once for a pull; its own changes
  /// coming back in the pull take their rows out of it as they do out of the table. (A row that
  /// cannot be read is left out, as every use of it would skip it.)
  struct Outbox {
    /// Each row, with the fields its change sets (``ownedFields(of:)``), named once per pull.
    var entries:
      [(sequence: Int64, basedOn: Int64, change: StandupsChange, fields: [(String, String)])]

    init(_ db: Database) throws {
      entries = try TeamLedger.waiting(limit: .max, includingPushed: true, db).compactMap {
        entry in
        decode(entry.change).map { (entry.sequence, entry.basedOn, $0, ownedFields(of: $0)) }
      }
    }

    mutating func remove(sequence: Int64) {
      entries.removeAll { $0.sequence == sequence }
    }
  }

  /// Applies the changes the server ordered after the last one applied, then this machine's
  /// waiting changes to the same standups again, in one transaction. A change that cannot be
  /// read or would break a rule is skipped, named in the report, and the rest go on.
  ///
  /// This machine's own changes are those of its ID made by `role`, the role it connects as: a
  /// member who writes rows under this machine's ID writes them as theirs.
  static func applyPulled(
    _ pulled: [PulledTeamChange],
    through sequence: Int64,
    as role: String,
    at now: Date,
    makeID: () -> UUID,
    _ db: Database
  ) throws -> TeamPullReport {
    var report = TeamPullReport()
    let machine = try TeamMembership.fetch(db).map {
      MemberMachine(madeBy: role, machine: $0.machine)
    }
    var outbox = try Outbox(db)
    var touched = Set<Standup.ID>()
    var seen = try machinesSeen(db)
    var seenNow: [MemberMachine: Int64] = [:]
    for change in pulled {
      // NB: A pull made again from the start (the server forgot changes: `rewind`) meets
      // changes applied here already; each machine's come in the order it numbered them.
      let from = MemberMachine(madeBy: change.madeBy, machine: change.machine)
      guard change.machineSequence > seen[from, default: 0] else { continue }
      seen[from] = change.machineSequence
      seenNow[from] = change.machineSequence
      if let size = change.tooLarge {
        report.skipped.append(
          TeamPullReport.Skipped(
            sequence: change.sequence, madeBy: change.madeBy,
            reason: "it holds \(megabytes(size)), more than a change may"))
        continue
      }
      let decoded: StandupsChange
      switch read(change.change) {
      case .success(let change): decoded = change
      case .failure(let problem):
        report.skipped.append(
          TeamPullReport.Skipped(
            sequence: change.sequence, madeBy: change.madeBy, reason: problem.reason))
        continue
      }
      let ownFields = ownedFields(of: decoded)
      if from != machine {
        try tellReplaced(
          by: decoded, of: change.madeBy, ownFields, outbox, at: now, makeID: makeID, db)
      } else {
        try executeCached(
          sql: "DELETE FROM teamOutbox WHERE pushed = 1 AND sequence = ?",
          arguments: [change.machineSequence], db)
        outbox.remove(sequence: change.machineSequence)
        if case .deleted = decoded {
        } else {
          for id in decoded.standupIDs {
            try executeCached(
              sql: "INSERT OR REPLACE INTO teamOwnChange (standupId, sequence) VALUES (?, ?)",
              arguments: [id.rawValue.uuidString, change.sequence], db)
          }
        }
      }
      if case .deleted(let id) = decoded, from != machine,
        try deletionMeetsChangesHere(
          of: id, at: change.sequence, basedOn: change.basedOn, outbox, db)
      {
        try executeCached(
          sql: """
            INSERT OR REPLACE INTO teamDeletionQuestion (standupId, deletedBy) VALUES (?, ?)
            """,
          arguments: [id.rawValue.uuidString, change.madeBy], db)
        report.deletedWhileChangedHere.append(id)
        continue
      }
      if from != machine {
        report.keptApart += try keepApartOwnCopies(of: decoded, makeID: makeID, db)
      }
      if let problem = try writeUnlessRefused(decoded, db) {
        report.skipped.append(
          TeamPullReport.Skipped(sequence: change.sequence, madeBy: change.madeBy, reason: problem))
        continue
      }
      for id in decoded.standupIDs {
        touched.insert(id)
        try executeCached(
          sql: "INSERT OR IGNORE INTO sharedStandup (standupId) VALUES (?)",
          arguments: [id.rawValue.uuidString], db)
        if decoded.bringsBack {
          try executeCached(
            sql: "UPDATE teamDeletionQuestion SET broughtBack = 1 WHERE standupId = ?",
            arguments: [id.rawValue.uuidString], db)
        }
        try executeCached(
          sql: """
            INSERT OR REPLACE INTO teamStandupLastChange (standupId, madeBy, machine, machineSequence)
            VALUES (?, ?, ?, ?)
            """,
          arguments: [
            id.rawValue.uuidString, change.madeBy, change.machine.uuidString,
            change.machineSequence,
          ], db)
      }
      if from != machine {
        report.standupIDs.formUnion(decoded.standupIDs)
        try forget(ownFields, db)
        if case .deleted(let id) = decoded {
          try executeCached(
            sql: "INSERT OR REPLACE INTO teamDeletedBy (standupId, member) VALUES (?, ?)",
            arguments: [id.rawValue.uuidString, change.madeBy], db)
        }
      } else {
        try own(ownFields, db)
      }
    }
    try applyAgain(outbox, to: touched, db)
    try noteSeen(seenNow, db)
    try db.execute(
      sql: "UPDATE teamMembership SET lastSequence = max(lastSequence, ?), lastSyncedAt = ?",
      arguments: [sequence, now.timeIntervalSinceReferenceDate])
    return report
  }

  /// Makes room for a standup the team adds (or brings back with a meeting) that this machine
  /// holds as its own, not shared: the same standup, shared here once and left (or copied from a
  /// file). When this machine's copy has other values, the team's takes its place, as the order
  /// says every machine holds it, and this machine's is kept as a personal copy of its own under
  /// a new ID: nothing of the team's differs here, and nothing of this machine's is lost or sent.
  /// Returns the copies' titles.
  private static func keepApartOwnCopies(
    of change: StandupsChange, makeID: () -> UUID, _ db: Database
  ) throws -> [String] {
    let theirs: [Standup]
    switch change {
    case .added(let standups): theirs = standups
    case .meetingRecorded(_, let standup): theirs = [standup]
    case .edited, .deleted: return []
    }
    var kept: [String] = []
    for standup in theirs {
      let key = standup.id.rawValue.uuidString
      guard
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM sharedStandup WHERE standupId = ?", arguments: [key])
          == 0,
        let own = try? StandupRows.fetchOne(db, id: standup.id), own != standup
      else { continue }
      let copy = Standup(
        id: Standup.ID(makeID()),
        attendees: IdentifiedArray(
          uniqueElements: own.attendees.map { Attendee(id: Attendee.ID(makeID()), name: $0.name) }
        ),
        duration: own.duration,
        meetings: IdentifiedArray(
          uniqueElements: own.meetings.map {
            Meeting(id: Meeting.ID(makeID()), date: $0.date, transcript: $0.transcript)
          }),
        theme: own.theme,
        title: "\(own.displayTitle) (kept here)")
      try StandupRecord.deleteOne(db, key: key)
      _ = try StandupsDatabase.write(.added([copy]), replacing: nil, db)
      kept.append(copy.title)
    }
    return kept
  }

  /// Applies this machine's changes in `outbox` that touch `standups` again, after changes the
  /// server ordered: they will be ordered after those when pushed.
  static func applyAgain(_ outbox: Outbox, to standups: Set<Standup.ID>, _ db: Database) throws {
    for entry in outbox.entries where entry.change.standupIDs.contains(where: standups.contains) {
      _ = try writeUnlessRefused(entry.change, db)
    }
  }

  /// Notes the last change applied here of each machine in `seen`, keeping a later one noted
  /// before.
  static func noteSeen(_ seen: [MemberMachine: Int64], _ db: Database) throws {
    for (machine, machineSequence) in seen {
      try executeCached(
        sql: """
          INSERT INTO teamMachineSeen (madeBy, machine, machineSequence) VALUES (?, ?, ?)
          ON CONFLICT (madeBy, machine)
          DO UPDATE SET machineSequence = max(machineSequence, excluded.machineSequence)
          """,
        arguments: [machine.madeBy, machine.machine.uuidString, machineSequence], db)
    }
  }

  /// The last change applied here of each machine's.
  static func machinesSeen(_ db: Database) throws -> [MemberMachine: Int64] {
    var seen: [MemberMachine: Int64] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT madeBy, machine, machineSequence FROM teamMachineSeen")
    {
      guard let machine = UUID(uuidString: row["machine"]) else { continue }
      seen[MemberMachine(madeBy: row["madeBy"], machine: machine)] = row["machineSequence"]
    }
    return seen
  }

  /// Starts again from the server's first change after `prunedThrough` (where its history
  /// begins), because the server has forgotten changes this machine applied (it was restored
  /// from an older backup): the next pull reads its whole order and applies only what is new
  /// here, and ``resend(_:)`` then sends again the standups
  /// `lost`: those whose last change applied here the server no longer has, found before the
  /// pull brings anyone's newer changes. (This machine's own changes the server lost before they
  /// came back are pushed again by their own check, ``notPushed(after:_:)``.) Nothing here is
  /// deleted.
  static func rewind(to prunedThrough: Int64, resending lost: [Standup.ID], _ db: Database)
    throws
  {
    try db.execute(
      sql: "UPDATE teamMembership SET lastSequence = ?, resharePending = ?",
      arguments: [prunedThrough, !lost.isEmpty])
    for id in lost {
      try db.execute(
        sql: "INSERT OR IGNORE INTO teamStandupToResend (standupId) VALUES (?)",
        arguments: [id.rawValue.uuidString])
    }
  }

  /// The last change applied here to each shared standup; a shared standup no pull has
  /// touched yet (shared here, its share not back) has none.
  static func lastChanges(_ db: Database) throws -> [Standup.ID: TeamChangeOrigin] {
    var last: [Standup.ID: TeamChangeOrigin] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT l.standupId, l.madeBy, l.machine, l.machineSequence
        FROM teamStandupLastChange AS l JOIN sharedStandup AS s ON s.standupId = l.standupId
        """)
    {
      guard let id = UUID(uuidString: row["standupId"]),
        let machine = UUID(uuidString: row["machine"])
      else { continue }
      last[Standup.ID(id)] = TeamChangeOrigin(
        machine: MemberMachine(madeBy: row["madeBy"], machine: machine),
        machineSequence: row["machineSequence"])
    }
    return last
  }

  /// After ``rewind(to:resending:_:)`` and a pull of the server's whole order, keeps the standups
  /// it named for the team again, whole, as they are now: added where the server lacks them,
  /// and given this machine's values where it has them (``Models/StandupEdit/init(restating:)``,
  /// which removes nothing). Returns how many.
  static func resend(_ db: Database) throws -> Int {
    guard let membership = try TeamMembership.fetch(db) else { return 0 }
    let ids = try String.fetchAll(db, sql: "SELECT standupId FROM teamStandupToResend")
      .compactMap { UUID(uuidString: $0).map { Standup.ID($0) } }
    let shared = try sharedIDs(db)
    let standups = try StandupRows.fetch(db, ids: ids.filter(shared.contains)).standups
    for standup in standups {
      let again: [StandupsChange] = [
        .added([standup]), .edited(standup.id, .init(restating: standup)),
      ]
      for change in again {
        try db.execute(
          sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
          arguments: [try encode(change), membership.lastSequence])
      }
    }
    try db.execute(sql: "DELETE FROM teamStandupToResend")
    try db.execute(sql: "UPDATE teamMembership SET resharePending = 0")
    return standups.count
  }

  /// The standups the team deleted while this machine had changed them, and who deleted each.
  static func deletionQuestions(_ db: Database) throws -> [TeamDeletionQuestion] {
    var questions: [TeamDeletionQuestion] = []
    for row in try Row.fetchAll(
      db, sql: "SELECT standupId, deletedBy FROM teamDeletionQuestion ORDER BY standupId")
    {
      // NB: A standup deleted here since is no question any more; the answer's commit (or
      // leaving the team) removes its row.
      guard
        let standup = try? StandupRows.fetchOne(db, id: Standup.ID(uuidString: row["standupId"]))
      else { continue }
      questions.append(TeamDeletionQuestion(standup: standup, deletedBy: row["deletedBy"]))
    }
    return questions
  }

  /// The user's answer: keep the standup (it is the team's again, as it is here) or let it go.
  ///
  /// Keeping it sends it whole, and its values again: a machine where a change ordered after
  /// the deletion brought it back (a meeting, which carries the standup as its recorder had it)
  /// takes this machine's values, which saw every change of the order.
  ///
  /// Letting it go deletes it here, and, when the team's order holds it again after the
  /// deletion (a change ordered after it brought it back), for the team too: a machine's shared
  /// standups are the order applied, whatever its user answered.
  static func answerDeletion(of id: Standup.ID, keep: Bool, _ db: Database) throws {
    let key = id.rawValue.uuidString
    let broughtBack =
      try Bool.fetchOne(
        db, sql: "SELECT broughtBack FROM teamDeletionQuestion WHERE standupId = ?",
        arguments: [key]) ?? false
    try db.execute(sql: "DELETE FROM teamDeletionQuestion WHERE standupId = ?", arguments: [key])
    guard let standup = try StandupRows.fetchOne(db, id: id) else { return }
    let basedOn = try TeamMembership.fetch(db)?.lastSequence ?? 0
    if keep {
      for change in [StandupsChange.added([standup]), .edited(id, .init(restating: standup))] {
        try db.execute(
          sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
          arguments: [try encode(change), basedOn])
      }
    } else {
      try StandupRecord.deleteOne(db, key: key)
      // NB: Otherwise nothing for the team: the server has the deletion already.
      if broughtBack {
        try db.execute(
          sql: "INSERT INTO teamOutbox (change, basedOn) VALUES (?, ?)",
          arguments: [try encode(.deleted(id)), basedOn])
      }
    }
  }

  /// The owner a replaced value is recorded under when another machine's change replaced it: no
  /// process of this machine's, so every instance of the app tells it.
  static let teamOwner = "team"

  /// The fields an edit sets, as `teamFieldOwner` names them.
  static func ownedFields(of change: StandupsChange) -> [(String, String)] {
    guard case .edited(let id, let edit) = change else { return [] }
    var fields: [String] = []
    if edit.title != nil { fields.append("title") }
    if edit.duration != nil { fields.append("duration") }
    if edit.theme != nil { fields.append("theme") }
    // NB: One field for an attendee's name and presence: a rename and a removal of one attendee
    // are two values of the same field.
    for id in (edit.attendees?.renamed.map(\.id) ?? []) + (edit.attendees?.removed ?? []) {
      fields.append("attendee:\(id.rawValue.uuidString)")
    }
    if edit.seen.attendeeOrder != nil { fields.append("attendeeOrder") }
    return fields.map { (id.rawValue.uuidString, $0) }
  }

  private static func field(of value: StandupValue) -> String {
    switch value {
    case .title: "title"
    case .duration: "duration"
    case .theme: "theme"
    case .attendeeName(let attendee), .attendeeRemoved(let attendee):
      "attendee:\(attendee.id.rawValue.uuidString)"
    case .attendeeOrder: "attendeeOrder"
    }
  }

  private static func own(_ fields: [(String, String)], _ db: Database) throws {
    for (standup, field) in fields {
      try executeCached(
        sql: "INSERT OR IGNORE INTO teamFieldOwner (standupId, field) VALUES (?, ?)",
        arguments: [standup, field], db)
    }
  }

  static func forget(_ fields: [(String, String)], _ db: Database) throws {
    for (standup, field) in fields {
      try executeCached(
        sql: "DELETE FROM teamFieldOwner WHERE standupId = ? AND field = ?",
        arguments: [standup, field], db)
    }
  }

  /// Records the values of this machine's that another machine's `change` replaces without
  /// having seen them: the server ordered it last, so it wins everywhere, and this machine's
  /// user is told. A field a change still waiting here sets again is not told: that change will
  /// be ordered later, and win.
  private static func tellReplaced(
    by change: StandupsChange, of member: String, _ fields: [(String, String)], _ outbox: Outbox,
    at now: Date, makeID: () -> UUID, _ db: Database
  ) throws {
    guard case .edited(let id, let edit) = change, !fields.isEmpty,
      let stored = try? StandupRows.fetchOne(db, id: id)
    else { return }
    let key = id.rawValue.uuidString
    let owned = Set(
      try String.fetchAll(
        db.cachedStatement(sql: "SELECT field FROM teamFieldOwner WHERE standupId = ?"),
        arguments: [key]))
    let waiting = Set(outbox.entries.flatMap(\.fields).filter { $0.0 == key }.map(\.1))
    for replacement in edit.valuesReplaced(in: stored) + attendeesReplaced(by: edit, in: stored) {
      let field = field(of: replacement.replaced)
      guard owned.contains(field), !waiting.contains(field) else { continue }
      try ReplacedValueRecord(
        ReplacedValue(
          id: ReplacedValue.ID(makeID()), standupID: id, standupTitle: stored.displayTitle,
          value: replacement.replaced, replacement: replacement.replacement, replacedAt: now,
          member: member),
        replacedBy: teamOwner
      ).insert(db)
    }
  }

  /// The attendees another machine's `edit` takes from this machine, beside the names
  /// ``Models/StandupEdit/valuesReplaced(in:)`` finds: an attendee named here that the edit
  /// removes without having seen that name, and an attendee removed here that the edit renames,
  /// which brings them back. (Which of them this machine set is the caller's to check.)
  private static func attendeesReplaced(by edit: StandupEdit, in stored: Standup)
    -> [StandupEdit.Replacement]
  {
    var replaced: [StandupEdit.Replacement] = []
    for id in edit.attendees?.removed ?? [] {
      guard let named = stored.attendees[id: id], edit.seen.attendeeNames[id] != named.name
      else { continue }
      replaced.append(.init(replaced: .attendeeName(named), by: .attendeeRemoved(named)))
    }
    for attendee in edit.attendees?.renamed ?? [] where stored.attendees[id: attendee.id] == nil {
      replaced.append(.init(replaced: .attendeeRemoved(attendee), by: .attendeeName(attendee)))
    }
    return replaced
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
  private static func read(_ text: String) -> Result<StandupsChange, UnreadableChange> {
    do {
      return .success(try JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8)))
    } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
      return .failure(UnreadableChange(reason: context.debugDescription))
    } catch {
      return .failure(UnreadableChange(reason: "it is not a change this release can read"))
    }
  }

  private static func megabytes(_ bytes: Int) -> String {
    "\((Double(bytes) / 1_048_576).formatted(.number.precision(.fractionLength(1)))) MB"
  }

  private struct UnreadableChange: Error {
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
  fileprivate var bringsBack: Bool {
    switch self {
    case .added, .meetingRecorded: true
    case .edited, .deleted: false
    }
  }
}
