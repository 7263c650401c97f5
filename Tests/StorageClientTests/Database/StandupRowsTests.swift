import Foundation
import GRDB
import Models
import PropertyBased
import Testing

@testable import StorageClient

/// `StandupRows.insert` binds values into statements it prepares once, where the plain way is
/// GRDB's record insert; the two must write the same rows.
struct StandupRowsTests {
  /// Random standups, with attendees, meetings and any text, inserted both ways into two
  /// databases of the app's schema: every row of every table is the same, in the same order.
  @Test(arguments: [1, 2, 3])
  func anInsertWritesTheRowsTheRecordsWould(seed: UInt64) throws {
    var random = Xoshiro(seed: (seed, seed &* 13, ~seed, seed ^ 0x5EED))
    let standups = (0..<40).map { _ in Standup.random(using: &random) }
    let fast = try DatabaseQueue()
    let plain = try DatabaseQueue()
    try Schema.migrator.migrate(fast)
    try Schema.migrator.migrate(plain)

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

    for table in ["standup", "attendee", "meeting"] {
      let sql = "SELECT rowid, * FROM \(table) ORDER BY rowid"
      let fastRows = try fast.read { try Row.fetchAll($0, sql: sql) }
      #expect(!fastRows.isEmpty, "\(table)")
      #expect(fastRows == (try plain.read { try Row.fetchAll($0, sql: sql) }), "\(table)")
    }
    #expect(try fast.read { try StandupRows.fetchAll($0) }.standups.elements == standups)
  }
}
