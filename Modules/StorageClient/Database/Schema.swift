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
/// - `standupChange`: for each standup, a number from one sequence that grows with every row
///   written: the triggers give each insert, update or delete of a standup's row (in `standup`,
///   `attendee` or `meeting`) the next number, so a commit that writes seven rows takes at least
///   seven (a row's columns may be updated one statement each), and the standup keeps the last.
///   They fire whoever writes — this app, another instance, the `sqlite3` shell — so another
///   instance finds what changed since it last read by fetching only the rows with a higher
///   number than it saw.
///
/// Added by "standups v2":
///
/// - `metadata`: facts about the database itself, by name, such as whether the data file of an
///   earlier release was brought in (``Metadata``).
/// - `replacedValue`: values a save replaced although they changed elsewhere after the form
///   that saved opened on them, kept until the user puts each away (``/Models/ReplacedValue``).
/// - `meetingInProgress.meetingId`: the ID the meeting gets when it is kept, so that an export
///   taken after a crash and the next launch's recovery name the same meeting.
/// - an index of `standup.position`, where a new standup goes.
///
/// Added by "standups v3", for a team's server (``TeamLedger``):
///
/// - `teamMembership`: the team this machine syncs with, if any, at most one row: the server's
///   URL (never a password), the team, this machine's ID on the server, and the last change of
///   the server's order it has applied.
/// - `sharedStandup`: the standups that are the team's; a standup not here never leaves this
///   machine.
/// - `teamOutbox`: this machine's changes to shared standups not yet on the server, in the order
///   they were made, each written in the transaction of the change itself.
///
/// - `teamOutbox.pushed`: a change the server has, kept until it comes back in a pull.
/// - `teamDeletionQuestion`: standups another member deleted while this machine had changed them
///   without seeing the deletion: kept here until the user keeps them for the team or lets go.
/// - `teamOwnChange`: where in the server's order this machine last changed each shared
///   standup: a deletion made by a machine that had not pulled that far deleted a change unseen.
/// - `teamFieldOwner`: the fields of shared standups whose value on the server is this
///   machine's (the last change of the server's order to set them was pushed from here), by
///   standup and field (as `TeamField` names them): when
///   another machine's later change replaces one without having seen it, this machine's user is
///   told (a `replacedValue` row), as a second instance's save is told today.
///
/// Added by "standups v4", for a server restored from an older backup:
///
/// - `teamMachineSeen`: the last change applied here of each machine's, by the role that made it
///   and the machine, numbered as that machine numbers its changes (which the server orders in
///   that order): a pull made again from the start applies only what is new here. A database of
///   "standups v3" has none yet, and fills it as it pulls.
/// - `teamMembership.resharePending`: the server has forgotten changes this machine had applied,
///   and once it has pulled the server's order again this machine sends standups again.
///
/// Added by "standups v5", for the same:
///
/// - `teamStandupLastChange`: the last change applied here to each shared standup, by the role
///   and machine that made it and its number there: what tells which standups a restored
///   server lost a change of.
/// - `teamStandupToResend`: the standups whose last change a restored server lost, which this
///   machine sends again once it has pulled the server's order again (`resharePending` is set
///   while it has rows).
///
/// Added by "standups v6", to say who in the team did what:
///
/// - `replacedValue.member`: the member whose change replaced a value of this machine's.
/// - `teamDeletedBy`: who deleted each standup the team deleted.
/// - `teamDeletionQuestion.broughtBack`: the team's order holds the standup again after the
///   deletion asked about.
///
/// Added by "standups v7":
///
/// - `teamDeletionQuestion.keptAs`: the user answered "Keep it", and the number of the keep's
///   change in the outbox: the row stays, no longer asked, until that change comes back in a
///   pull, since until then a change ordered before it may bring the standup back.
///
/// Added by "standups v8", for a machine in several teams:
///
/// - `teamMembership`: one row per team this machine has joined, numbered (`id`), on one server
///   or several; a server and team once.
/// - `sharedStandup.membership`, `teamOutbox.membership`, `teamMachineSeen.membership`: the team
///   each shared standup, waiting change and machine seen belongs to. A standup is shared in at
///   most one team (`sharedStandup`'s key); the other tables of the team's follow from the
///   standup.
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
    migrator.registerMigration("standups v2") { db in
      try db.create(table: "metadata") { table in
        table.primaryKey("key", .text)
        table.column("value", .text).notNull()
      }
      try db.create(table: "replacedValue") { table in
        table.primaryKey("id", .text)
        table.column("standupId", .text).notNull()
        table.column("standupTitle", .text).notNull()
        // NB: The value and its replacement in the JSON of `StandupValue`'s Codable conformance.
        table.column("value", .text).notNull()
        table.column("replacement", .text).notNull()
        table.column("replacedAt", .double).notNull()
        // NB: The process that saved the replacement (`ProcessIdentity`): it is not told of what
        // it did itself.
        table.column("replacedBy", .text).notNull()
      }
      try db.alter(table: "meetingInProgress") { table in
        table.add(column: "meetingId", .text)
      }
      // NB: Where a new standup goes is the position after the largest: found by this index in
      // a step or two, not by reading every row.
      try db.create(index: "standup_position", on: "standup", columns: ["position"])
    }
    migrator.registerMigration("standups v3") { db in
      try db.create(table: "teamMembership") { table in
        table.primaryKey("singleton", .integer).check { $0 == 1 }
        table.column("server", .text).notNull()
        table.column("team", .text).notNull()
        table.column("machine", .text).notNull()
        table.column("lastSequence", .integer).notNull().defaults(to: 0)
        table.column("lastSyncedAt", .double)
      }
      try db.create(table: "sharedStandup") { table in
        table.primaryKey("standupId", .text)
      }
      try db.create(table: "teamOutbox") { table in
        table.autoIncrementedPrimaryKey("sequence")
        // NB: The change as the JSON of `StandupsChange`'s Codable conformance.
        table.column("change", .text).notNull()
        table.column("basedOn", .integer).notNull()
        // NB: Pushed rows stay until they come back in a pull: until then the server will
        // order them after anything pulled, and a deletion pulled meanwhile must see them.
        table.column("pushed", .boolean).notNull().defaults(to: false)
      }
      try db.create(table: "teamDeletionQuestion") { table in
        table.primaryKey("standupId", .text)
        table.column("deletedBy", .text).notNull()
      }
      try db.create(table: "teamOwnChange") { table in
        table.primaryKey("standupId", .text)
        table.column("sequence", .integer).notNull()
      }
      try db.create(table: "teamFieldOwner") { table in
        table.column("standupId", .text).notNull()
        table.column("field", .text).notNull()
        table.primaryKey(["standupId", "field"])
      }
    }
    migrator.registerMigration("standups v4") { db in
      try db.create(table: "teamMachineSeen") { table in
        // NB: By role and machine: a member who writes rows by hand in another machine's name
        // moves only their own entry.
        table.column("madeBy", .text).notNull()
        table.column("machine", .text).notNull()
        table.column("machineSequence", .integer).notNull()
        table.primaryKey(["madeBy", "machine"])
      }
      try db.alter(table: "teamMembership") { table in
        table.add(column: "resharePending", .boolean).notNull().defaults(to: false)
      }
    }
    migrator.registerMigration("standups v5") { db in
      try db.create(table: "teamStandupToResend") { table in
        table.primaryKey("standupId", .text)
      }
      try db.create(table: "teamStandupLastChange") { table in
        table.primaryKey("standupId", .text)
        table.column("madeBy", .text).notNull()
        table.column("machine", .text).notNull()
        table.column("machineSequence", .integer).notNull()
      }
    }
    migrator.registerMigration("standups v6") { db in
      // NB: Who in the team replaced a value, so that its owner is told who, and that it was the
      // team's order.
      try db.alter(table: "replacedValue") { table in
        table.add(column: "member", .text)
      }
      // NB: Who in the team deleted a standup, so that a screen it closes, or a question about
      // it, names them, not another instance of the app.
      try db.create(table: "teamDeletedBy") { table in
        table.primaryKey("standupId", .text)
        table.column("member", .text).notNull()
      }
      // NB: Whether the team's order holds the standup again after the deletion asked about (a
      // meeting recorded here, another member's "Keep it"): letting it go must then delete it
      // for the team, or this machine would differ from the order for good.
      try db.alter(table: "teamDeletionQuestion") { table in
        table.add(column: "broughtBack", .boolean).notNull().defaults(to: false)
      }
    }
    migrator.registerMigration("standups v7") { db in
      try db.alter(table: "teamDeletionQuestion") { table in
        table.add(column: "keptAs", .integer)
      }
    }
    migrator.registerMigration("standups v8") { db in
      try db.create(table: "teamMembershipNew") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("server", .text).notNull()
        table.column("team", .text).notNull()
        table.column("machine", .text).notNull()
        table.column("lastSequence", .integer).notNull().defaults(to: 0)
        table.column("lastSyncedAt", .double)
        table.column("resharePending", .boolean).notNull().defaults(to: false)
        table.uniqueKey(["server", "team"])
      }
      try db.execute(
        sql: """
          INSERT INTO teamMembershipNew
            (id, server, team, machine, lastSequence, lastSyncedAt, resharePending)
          SELECT 1, server, team, machine, lastSequence, lastSyncedAt, resharePending
          FROM teamMembership
          """)
      try db.drop(table: "teamMembership")
      try db.rename(table: "teamMembershipNew", to: "teamMembership")
      // NB: Rows of before belong to the one team there was (a machine in none has none). Each
      // table is made again, since SQLite cannot add a column to a primary key, nor one without
      // a default: a row must name its team.
      try db.create(table: "sharedStandupNew") { table in
        table.primaryKey("standupId", .text)
        table.column("membership", .integer).notNull().indexed()
      }
      try db.execute(
        sql:
          "INSERT INTO sharedStandupNew (standupId, membership) SELECT standupId, 1 FROM sharedStandup"
      )
      try db.create(table: "teamOutboxNew") { table in
        table.autoIncrementedPrimaryKey("sequence")
        table.column("membership", .integer).notNull().indexed()
        table.column("change", .text).notNull()
        table.column("basedOn", .integer).notNull()
        table.column("pushed", .boolean).notNull().defaults(to: false)
      }
      // NB: The numbers go on from the last ever given, not the last still here: the server
      // keeps a machine's number for each change unique, and would leave out a change numbered
      // as one it has (SchemaTests).
      try db.execute(
        sql: """
          INSERT INTO teamOutboxNew (sequence, membership, change, basedOn, pushed)
          SELECT sequence, 1, change, basedOn, pushed FROM teamOutbox;
          DELETE FROM sqlite_sequence WHERE name = 'teamOutboxNew';
          INSERT INTO sqlite_sequence (name, seq)
          SELECT 'teamOutboxNew', seq FROM sqlite_sequence WHERE name = 'teamOutbox';
          """)
      try db.create(table: "teamMachineSeenNew") { table in
        table.column("membership", .integer).notNull()
        table.column("madeBy", .text).notNull()
        table.column("machine", .text).notNull()
        table.column("machineSequence", .integer).notNull()
        table.primaryKey(["membership", "madeBy", "machine"])
      }
      try db.execute(
        sql: """
          INSERT INTO teamMachineSeenNew (membership, madeBy, machine, machineSequence)
          SELECT 1, madeBy, machine, machineSequence FROM teamMachineSeen
          """)
      for table in ["sharedStandup", "teamOutbox", "teamMachineSeen"] {
        try db.drop(table: table)
        try db.rename(table: "\(table)New", to: table)
      }
    }
    return migrator
  }
}
