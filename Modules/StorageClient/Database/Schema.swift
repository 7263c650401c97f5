import GRDB

/// The database's tables, made and changed only by migrations.
///
/// - `standup`: one row per standup, in the list's order (`position`).
/// - `attendee`, `meeting`: a standup's attendees (in speaking order) and past meetings, deleted
///   with it. A meeting's `date` is in seconds since 2001-01-01 UTC, Foundation's reference
///   date, which holds a `Date` exactly; meetings read newest first, and of two with the same
///   date, the one written later first.
/// - `meetingInProgress`: what a meeting being recorded has heard so far, one row per standup
///   and recording process, so that a crash loses none of it.
/// - `standupChange`: for each standup, the sequence number of the last commit that changed any
///   of its rows. Triggers keep it, whoever writes — this app, another instance, the `sqlite3`
///   shell — so another instance finds what changed since it last looked by reading only the
///   rows with a higher number.
///
/// A database whose migrations include ones this release does not know was made by a newer
/// release: it is opened read-only (``DatabaseMigrator/hasBeenSuperseded(_:)``).
enum Schema {
  /// The first migration's name: a database whose migrations lack it is not a standups
  /// database, even when it was made with GRDB.
  static let firstMigration = "standups v1"

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration(firstMigration) { db in
      try db.create(table: "standup") { table in
        table.primaryKey("id", .text)
        table.column("position", .integer).notNull()
        table.column("title", .text).notNull()
        table.column("durationMilliseconds", .integer).notNull()
        table.column("theme", .text).notNull()
      }
      try db.create(table: "attendee") { table in
        table.belongsTo("standup", onDelete: .cascade).notNull()
        table.column("id", .text).notNull()
        table.column("position", .integer).notNull()
        table.column("name", .text).notNull()
        table.primaryKey(["standupId", "id"])
      }
      try db.create(table: "meeting") { table in
        table.belongsTo("standup", onDelete: .cascade).notNull()
        table.column("id", .text).notNull()
        table.column("date", .double).notNull()
        table.column("transcript", .text).notNull()
        table.primaryKey(["standupId", "id"])
      }
      try db.create(table: "meetingInProgress") { table in
        table.column("standupId", .text).notNull()
        table.column("owner", .text).notNull()
        table.column("startedAt", .double).notNull()
        table.column("updatedAt", .double).notNull()
        table.column("transcript", .text).notNull()
        // NB: The standup as the recorder had it, in the JSON file format: a crash after
        // another instance deleted the standup still keeps the meeting, with its standup.
        table.column("standup", .text).notNull()
        table.primaryKey(["standupId", "owner"])
      }
      try db.create(table: "standupChange") { table in
        table.primaryKey("standupId", .text)
        table.column("sequence", .integer).notNull().indexed()
      }
      for (table, standupColumn) in [
        ("standup", "id"), ("attendee", "standupId"), ("meeting", "standupId"),
      ] {
        for (event, row) in [("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")] {
          try db.execute(
            sql: """
              CREATE TRIGGER \(table)_\(event.lowercased())_marks_its_standup
              AFTER \(event) ON \(table) BEGIN
                INSERT OR REPLACE INTO standupChange (standupId, sequence)
                VALUES (\(row).\(standupColumn), (SELECT IFNULL(MAX(sequence), 0) + 1 FROM standupChange));
              END
              """)
        }
      }
    }
    return migrator
  }
}
