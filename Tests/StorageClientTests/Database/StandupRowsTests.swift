import Foundation
import GRDB
import IdentifiedCollections
import Models
import PropertyBased
import Testing

@testable import StorageClient

/// `StandupRows.insert` and `StandupRows.write` bind values into statements they prepare once,
/// where the plain way is GRDB's record insert and `updateChanges`; the two must write the same
/// rows.
struct StandupRowsTests {
  /// Random standups, with attendees, meetings and any text, inserted both ways into two
  /// databases of the app's schema: every row of every table is the same, in the same order.
  @Test(arguments: [1, 2, 3])
  func anInsertWritesTheRowsTheRecordsWould(seed: UInt64) throws {
    var random = Xoshiro(seed: (seed, seed &* 13, ~seed, seed ^ 0x5EED))
    let standups = (0..<40).map { _ in Standup.random(using: &random) }
    let (fast, plain) = (try migratedDatabase(), try migratedDatabase())

    try fast.write { db in
      for (position, standup) in standups.enumerated() {
        try StandupRows.insert(standup, at: position, db)
      }
    }
    try plain.write { db in
      for (position, standup) in standups.enumerated() {
        try StandupRecord(standup, position: position).insert(db)
        for (index, attendee) in standup.attendees.enumerated() {
          try AttendeeRecord(attendee, of: standup.id, position: index).insert(db)
        }
        for meeting in standup.meetings.reversed() {
          try MeetingRecord(meeting, of: standup.id).insert(db)
        }
      }
    }

    try expectSameRows(fast, plain)
    #expect(try fast.read { try StandupRows.fetchAll($0) }.standups.elements == standups)
  }

  /// Random standups, then each changed at random (its title, duration or theme, attendees
  /// removed, renamed, moved and added, meetings removed and added), written both ways: every
  /// row of every table is the same, and the standups read back are the changed ones.
  @Test(arguments: [1, 2, 3])
  func aWriteLeavesTheRowsTheRecordsWould(seed: UInt64) throws {
    var random = Xoshiro(seed: (seed, seed &* 31, ~seed, seed ^ 0xED17))
    let before = (0..<40).map { _ in Standup.random(using: &random) }
    let after = before.map { changed($0, using: &random) }
    let (fast, plain) = (try migratedDatabase(), try migratedDatabase())
    for database in [fast, plain] {
      try database.write { db in
        for (position, standup) in before.enumerated() {
          try StandupRows.insert(standup, at: position, db)
        }
      }
    }

    try fast.write { db in
      for (old, new) in zip(before, after) { try StandupRows.write(from: old, to: new, db) }
    }
    try plain.write { db in
      for (position, (old, new)) in zip(before, after).enumerated() {
        try StandupRecord(new, position: position)
          .updateChanges(db, from: StandupRecord(old, position: position))
        for attendee in old.attendees where new.attendees[id: attendee.id] == nil {
          try AttendeeRecord(attendee, of: old.id, position: 0).delete(db)
        }
        for (index, attendee) in new.attendees.enumerated() {
          let record = AttendeeRecord(attendee, of: new.id, position: index)
          if let stored = old.attendees.index(id: attendee.id) {
            try record.updateChanges(
              db, from: AttendeeRecord(old.attendees[stored], of: old.id, position: stored))
          } else {
            try record.insert(db)
          }
        }
        for meeting in old.meetings where new.meetings[id: meeting.id] == nil {
          try MeetingRecord(meeting, of: old.id).delete(db)
        }
        for meeting in new.meetings.reversed() where old.meetings[id: meeting.id] == nil {
          try MeetingRecord(meeting, of: new.id).insert(db)
        }
      }
    }

    try expectSameRows(fast, plain)
    #expect(try fast.read { try StandupRows.fetchAll($0) }.standups.elements == after)
  }

  /// A deletion takes the standup's attendees and meetings with it, and no other standup's rows.
  @Test func aDeletionTakesTheStandupsRowsAndOnlyThose() throws {
    var random = Xoshiro(seed: (7, 11, 13, 17))
    // NB: Each with attendees and meetings, so that every table has rows to keep and to lose.
    var standups: [Standup] = []
    while standups.count < 3 {
      let standup = Standup.random(using: &random)
      if !standup.attendees.isEmpty && !standup.meetings.isEmpty { standups.append(standup) }
    }
    let database = try migratedDatabase()
    try database.write { db in
      for (position, standup) in standups.enumerated() {
        try StandupRows.insert(standup, at: position, db)
      }
      try StandupRows.delete(standups[1].id, db)
      try StandupRows.delete(standups[1].id, db)
    }

    let left = try database.read { db in
      try ["attendee", "meeting"].map { table in
        try String.fetchAll(db, sql: "SELECT DISTINCT standupId FROM \(table)")
      }
    }
    #expect(
      try database.read { try StandupRows.fetchAll($0) }.standups.elements == [
        standups[0], standups[2],
      ])
    let kept = Set([standups[0], standups[2]].map(\.id.rawValue.uuidString))
    #expect(left.allSatisfy { Set($0) == kept }, "attendees, then meetings: \(left)")
  }

  private func migratedDatabase() throws -> DatabaseQueue {
    let database = try DatabaseQueue()
    try Schema.migrator.migrate(database)
    return database
  }

  /// Every row of the standups' tables is the same in `fast` as in `plain`, in the same order.
  private func expectSameRows(
    _ fast: DatabaseQueue, _ plain: DatabaseQueue, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for table in ["standup", "attendee", "meeting"] {
      let sql = "SELECT rowid, * FROM \(table) ORDER BY rowid"
      let fastRows = try fast.read { try Row.fetchAll($0, sql: sql) }
      #expect(!fastRows.isEmpty, "\(table)", sourceLocation: sourceLocation)
      #expect(
        fastRows == (try plain.read { try Row.fetchAll($0, sql: sql) }), "\(table)",
        sourceLocation: sourceLocation)
    }
  }

  /// `standup` with any of its parts changed, as edits, imports and meetings change them.
  private func changed(_ standup: Standup, using random: inout Xoshiro) -> Standup {
    let other = Standup.random(using: &random)
    var changed = standup
    if Bool.random(using: &random) { changed.title = other.title }
    if Bool.random(using: &random) { changed.duration = other.duration }
    if Bool.random(using: &random) { changed.theme = other.theme }
    var attendees = standup.attendees.elements.filter { _ in Bool.random(using: &random) }
    for index in attendees.indices where Bool.random(using: &random) {
      attendees[index].name = other.title
    }
    if Bool.random(using: &random) { attendees.shuffle(using: &random) }
    changed.attendees = IdentifiedArray(uniqueElements: attendees + other.attendees)
    let meetings = standup.meetings.elements.filter { _ in Bool.random(using: &random) }
    changed.meetings = IdentifiedArray(
      uniqueElements: (meetings + other.meetings).sorted { $0.date > $1.date })
    return changed
  }
}
