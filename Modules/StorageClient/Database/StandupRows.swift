import Foundation
import GRDB
import IdentifiedCollections
import Models

/// A standup as rows: reading standups from the database, and writing or deleting the rows a
/// change touches.
///
/// Writes go row by row and column by column: ``write(from:to:_:)`` compares the standup
/// as stored with the standup as it should be and updates, inserts or deletes only the rows and
/// columns that differ.
enum StandupRows {
  /// Standups read from their rows, and those whose rows hold what no standup may
  /// (``UnreadableStandup``): another program wrote them, or the disk damaged them. One such
  /// standup never keeps the others from being read.
  struct Read: Equatable {
    var standups: IdentifiedArrayOf<Standup> = []
    var unreadable: [UnreadableStandup] = []
  }

  /// Every standup, in the list's order.
  static func fetchAll(_ db: Database) throws -> Read {
    try assemble(
      StandupRecord.order(Column("position"), Column("id")).fetchAll(db),
      attendees: AttendeeRecord.order(Column("standupId"), Column("position")).fetchAll(db),
      meetings: MeetingRecord.order(Column("date").desc, Column.rowID.desc).fetchAll(db)
    )
  }

  /// The standups with the given IDs that are stored, in the list's order.
  static func fetch(_ db: Database, ids: [Standup.ID]) throws -> Read {
    var standups: [StandupRecord] = []
    var attendees: [AttendeeRecord] = []
    var meetings: [MeetingRecord] = []
    // NB: In slices, to stay below SQLite's limit on the values one statement binds.
    for start in stride(from: 0, to: ids.count, by: 500) {
      let keys = ids[start..<min(start + 500, ids.count)].map(\.rawValue.uuidString)
      standups += try StandupRecord.filter(keys.contains(Column("id"))).fetchAll(db)
      attendees += try AttendeeRecord.filter(keys.contains(Column("standupId")))
        .order(Column("position")).fetchAll(db)
      meetings += try MeetingRecord.filter(keys.contains(Column("standupId")))
        .order(Column("date").desc, Column.rowID.desc).fetchAll(db)
    }
    standups.sort { ($0.position, $0.id) < ($1.position, $1.id) }
    return try assemble(standups, attendees: attendees, meetings: meetings)
  }

  /// The standup with this ID, if it is stored; throws ``UnreadableStandup`` when its rows
  /// cannot be read.
  static func fetchOne(_ db: Database, id: Standup.ID) throws -> Standup? {
    // NB: Statements prepared once per connection, as `isStored`'s: a pull reads the standup of
    // every edit it applies. They read what `fetch(_:ids:)` reads for one ID, in its order.
    let key: StatementArguments = [id.rawValue.uuidString]
    let standups = try StandupRecord.fetchAll(
      db.cachedStatement(sql: "SELECT * FROM standup WHERE id = ?"), arguments: key)
    guard !standups.isEmpty else { return nil }
    let read = try assemble(
      standups,
      attendees: AttendeeRecord.fetchAll(
        db.cachedStatement(sql: "SELECT * FROM attendee WHERE standupId = ? ORDER BY position"),
        arguments: key),
      meetings: MeetingRecord.fetchAll(
        db.cachedStatement(
          sql: "SELECT * FROM meeting WHERE standupId = ? ORDER BY date DESC, rowid DESC"),
        arguments: key))
    if let unreadable = read.unreadable.first { throw unreadable }
    return read.standups.first
  }

  /// Where the standup with this ID is in the list, if it is stored.
  static func position(of id: Standup.ID, _ db: Database) throws -> Int? {
    try Int.fetchOne(
      db, sql: "SELECT position FROM standup WHERE id = ?", arguments: [id.rawValue.uuidString])
  }

  /// The position after the last standup's: where a new one goes.
  static func nextPosition(_ db: Database) throws -> Int {
    // NB: Prepared once per connection, as `isStored`: a pull adds standups one change at a time.
    try Int.fetchOne(db.cachedStatement(sql: "SELECT IFNULL(MAX(position), -1) + 1 FROM standup"))
      ?? 0
  }

  /// Whether the standup with this ID is stored.
  static func isStored(_ id: Standup.ID, _ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM standup WHERE id = ?)"),
      arguments: [id.rawValue.uuidString]) ?? false
  }

  /// Deletes the standup with this ID, with its attendees and meetings (the schema's foreign keys
  /// cascade); nothing when it is not stored.
  static func delete(_ id: Standup.ID, _ db: Database) throws {
    try StandupRecord.deleteOne(db, key: id.rawValue.uuidString)
  }

  /// Inserts a standup that is not stored, with its attendees and meetings: the rows its
  /// records' `insert(db)` would write.
  ///
  /// Each row goes through a statement prepared once per connection, its values bound in the
  /// order its SQL names the columns, rather than through GRDB's record insert, which encodes
  /// the record and builds its statement every time: a join inserts every standup of the
  /// team's, thousands in one transaction (`Sync.Join`). Guarded by
  /// `StandupRowsTests.anInsertWritesTheRowsTheRecordsWould`.
  static func insert(_ standup: Standup, at position: Int, _ db: Database) throws {
    let standupRow = StandupRecord(standup, position: position)
    try db.cachedStatement(
      sql: """
        INSERT INTO standup (id, position, title, durationMilliseconds, theme)
        VALUES (?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      standupRow.id, standupRow.position, standupRow.title, standupRow.durationMilliseconds,
      standupRow.theme,
    ])
    for (index, attendee) in standup.attendees.enumerated() {
      let row = AttendeeRecord(attendee, of: standup.id, position: index)
      try db.cachedStatement(
        sql: "INSERT INTO attendee (standupId, id, position, name) VALUES (?, ?, ?, ?)"
      ).execute(arguments: [row.standupId, row.id, row.position, row.name])
    }
    // NB: Oldest first, so that of two meetings with the same date the later row reads first,
    // as it came first in the standup.
    for meeting in standup.meetings.reversed() {
      let row = MeetingRecord(meeting, of: standup.id)
      try db.cachedStatement(
        sql: "INSERT INTO meeting (standupId, id, date, transcript) VALUES (?, ?, ?, ?)"
      ).execute(arguments: [row.standupId, row.id, row.date, row.transcript])
    }
  }

  /// Writes the rows and columns in which `after` differs from `before`, the standup as stored.
  ///
  /// The standup's row and its attendees' rows are updated through statements prepared once per
  /// connection, rather than GRDB's `updateChanges`, which encodes both records to compare them:
  /// a pull writes a standup for every change it applies (`Sync.Team`). The standup keeps its
  /// place in the list. Guarded by `StandupRowsTests.aWriteLeavesTheRowsTheRecordsWould`.
  static func write(from before: Standup, to after: Standup, _ db: Database) throws {
    guard before != after else { return }
    let id = before.id.rawValue.uuidString
    let (old, new) = (StandupRecord(before, position: 0), StandupRecord(after, position: 0))
    if old.title != new.title {
      try db.cachedStatement(sql: "UPDATE standup SET title = ? WHERE id = ?")
        .execute(arguments: [new.title, id])
    }
    if old.durationMilliseconds != new.durationMilliseconds {
      try db.cachedStatement(sql: "UPDATE standup SET durationMilliseconds = ? WHERE id = ?")
        .execute(arguments: [new.durationMilliseconds, id])
    }
    if old.theme != new.theme {
      try db.cachedStatement(sql: "UPDATE standup SET theme = ? WHERE id = ?")
        .execute(arguments: [new.theme, id])
    }

    for attendee in before.attendees where after.attendees[id: attendee.id] == nil {
      try AttendeeRecord.deleteOne(
        db, key: ["standupId": id, "id": attendee.id.rawValue.uuidString])
    }
    for (index, attendee) in after.attendees.enumerated() {
      let row = AttendeeRecord(attendee, of: after.id, position: index)
      if let stored = before.attendees.index(id: attendee.id) {
        if stored != index {
          try db.cachedStatement(
            sql: "UPDATE attendee SET position = ? WHERE standupId = ? AND id = ?"
          ).execute(arguments: [row.position, row.standupId, row.id])
        }
        if before.attendees[stored].name != attendee.name {
          try db.cachedStatement(
            sql: "UPDATE attendee SET name = ? WHERE standupId = ? AND id = ?"
          ).execute(arguments: [row.name, row.standupId, row.id])
        }
      } else {
        try row.insert(db)
      }
    }

    for meeting in before.meetings where after.meetings[id: meeting.id] == nil {
      try MeetingRecord.deleteOne(
        db, key: ["standupId": before.id.rawValue.uuidString, "id": meeting.id.rawValue.uuidString])
    }
    for meeting in after.meetings.reversed() where before.meetings[id: meeting.id] == nil {
      try MeetingRecord(meeting, of: after.id).insert(db)
    }
  }

  /// Builds standups from their rows: `standups` in order, with the attendees and meetings that
  /// belong to each, in the order given. A standup any of whose rows holds a value no standup
  /// may (``StandupRules``) is set aside as unreadable, with the first such value.
  private static func assemble(
    _ standups: [StandupRecord],
    attendees: [AttendeeRecord],
    meetings: [MeetingRecord]
  ) throws -> Read {
    var problems: [String: InvalidStoredValue] = [:]
    var attendeesByStandup: [String: IdentifiedArrayOf<Attendee>] = [:]
    for record in attendees {
      do {
        attendeesByStandup[record.standupId, default: []].updateOrAppend(try record.attendee())
      } catch {
        problems[record.standupId] = problems[record.standupId] ?? error
      }
    }
    var meetingsByStandup: [String: IdentifiedArrayOf<Meeting>] = [:]
    for record in meetings {
      do {
        meetingsByStandup[record.standupId, default: []].updateOrAppend(try record.meeting())
      } catch {
        problems[record.standupId] = problems[record.standupId] ?? error
      }
    }
    var read = Read()
    read.standups.reserveCapacity(standups.count)
    for record in standups {
      do throws(InvalidStoredValue) {
        if let problem = problems[record.id] { throw problem }
        var standup = try record.standup()
        standup.attendees = attendeesByStandup[record.id] ?? []
        standup.meetings = meetingsByStandup[record.id] ?? []
        read.standups.updateOrAppend(standup)
      } catch {
        read.unreadable.append(
          UnreadableStandup(id: record.id, title: record.title, problem: error.description))
      }
    }
    return read
  }
}

/// A value in the database that no standup can have: a damaged or hand-edited database.
struct InvalidStoredValue: Error, Equatable, CustomStringConvertible {
  var table: String
  var column: String
  var value: String
  /// The rule the value breaks, when it is one of ``StandupRules``.
  var rule: String?

  var description: String {
    let value = value.count > 40 ? String(value.prefix(40)) + "…" : value
    return "\(table).\(column) holds \(value.debugDescription), which is not a valid value"
      + (rule.map { " (\($0.prefix(1).lowercased() + $0.dropFirst().dropLast()))" } ?? "")
  }
}

/// A row of `standup`.
struct StandupRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "standup"

  var id: String
  var position: Int
  var title: String
  var durationMilliseconds: Int64
  var theme: String

  init(_ standup: Standup, position: Int) {
    id = standup.id.rawValue.uuidString
    self.position = position
    title = standup.title
    durationMilliseconds = standup.duration.inMilliseconds
    theme = standup.theme.rawValue
  }

  func standup() throws(InvalidStoredValue) -> Standup {
    guard let uuid = UUID(uuidString: id) else {
      throw InvalidStoredValue(table: "standup", column: "id", value: id)
    }
    guard let theme = Theme(rawValue: theme) else {
      throw InvalidStoredValue(table: "standup", column: "theme", value: theme)
    }
    guard StandupRules.violation(ofDuration: .milliseconds(durationMilliseconds)) == nil else {
      throw InvalidStoredValue(
        table: "standup", column: "durationMilliseconds", value: "\(durationMilliseconds)",
        rule: StandupRules.durationRule)
    }
    return Standup(
      id: Standup.ID(uuid),
      duration: .milliseconds(durationMilliseconds),
      theme: theme,
      title: title
    )
  }
}

/// A row of `attendee`.
struct AttendeeRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "attendee"

  var standupId: String
  var id: String
  var position: Int
  var name: String

  init(_ attendee: Attendee, of standupID: Standup.ID, position: Int) {
    standupId = standupID.rawValue.uuidString
    id = attendee.id.rawValue.uuidString
    self.position = position
    name = attendee.name
  }

  func attendee() throws(InvalidStoredValue) -> Attendee {
    guard let uuid = UUID(uuidString: id) else {
      throw InvalidStoredValue(table: "attendee", column: "id", value: id)
    }
    return Attendee(id: Attendee.ID(uuid), name: name)
  }
}

/// A row of `meeting`.
struct MeetingRecord: Codable, Equatable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "meeting"

  var standupId: String
  var id: String
  /// Seconds since 2001-01-01 UTC.
  var date: Double
  var transcript: String

  init(_ meeting: Meeting, of standupID: Standup.ID) {
    standupId = standupID.rawValue.uuidString
    id = meeting.id.rawValue.uuidString
    date = meeting.date.timeIntervalSinceReferenceDate
    transcript = meeting.transcript
  }

  func meeting() throws(InvalidStoredValue) -> Meeting {
    guard let uuid = UUID(uuidString: id) else {
      throw InvalidStoredValue(table: "meeting", column: "id", value: id)
    }
    guard StandupRules.violation(ofMeetingDate: Date(timeIntervalSinceReferenceDate: date)) == nil
    else {
      throw InvalidStoredValue(
        table: "meeting", column: "date", value: "\(date)", rule: StandupRules.meetingDateRule)
    }
    return Meeting(
      id: Meeting.ID(uuid),
      date: Date(timeIntervalSinceReferenceDate: date),
      transcript: transcript
    )
  }
}

extension Standup.ID {
  /// The ID whose text is `text`; a nil UUID for text that is not one, which matches no row.
  init(uuidString text: String) {
    self.init(
      UUID(uuidString: text) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
  }
}
