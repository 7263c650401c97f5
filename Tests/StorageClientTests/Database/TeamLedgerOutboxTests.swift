import Foundation
import GRDB
import IdentifiedCollections
import Models
import PropertyBased
import Testing

@testable import StorageClient

/// `TeamLedger.Outbox.readAgain` decodes only the rows it does not already hold with the same
/// text, where the plain way, `Outbox(of:)`, decodes every row: the two must give the same
/// outbox, whatever the outbox read again held before.
struct TeamLedgerOutboxTests {
  /// Random steps on the outbox rows of two teams — changes made (some of a kind no release
  /// reads), pushed, come back, rewritten under their number (some only into text canonically
  /// equivalent to what was there, "ü" as "u" and a combining mark) — and on the outbox a pull
  /// holds:
  /// an entry lost in a window whose transaction rolled back, or another team's outbox in its
  /// place. After each step, the outbox read again is the one decoding every row gives.
  @Test(arguments: [1, 2, 3])
  func readingAgainGivesWhatDecodingEveryRowGives(seed: UInt64) throws {
    var random = Xoshiro(seed: (seed, seed &* 7, ~seed, seed ^ 0x0B0C5))
    let database = try DatabaseQueue()
    try Schema.migrator.migrate(database)
    let team = TeamMembership.ID(1)
    var standups: IdentifiedArrayOf<Standup> = []
    var held = TeamLedger.Outbox()
    for step in 0..<300 {
      try database.write { db in
        let numbers = try Int64.fetchAll(db, sql: "SELECT sequence FROM teamOutbox")
        switch Int.random(in: 0..<11, using: &random) {
        case 0..<4:
          let change = StandupsChange.random(in: standups, using: &random)
          change.apply(to: &standups)
          try db.execute(
            sql: "INSERT INTO teamOutbox (membership, change, basedOn) VALUES (?, ?, ?)",
            arguments: [
              Int.random(in: 1...2, using: &random), try text(of: change, using: &random),
              Int.random(in: 0..<50, using: &random),
            ])
        case 4:
          try db.execute(
            sql: "UPDATE teamOutbox SET pushed = 1 WHERE sequence <= ?",
            arguments: [numbers.randomElement(using: &random) ?? 0])
        case 5, 6:
          try db.execute(
            sql: "DELETE FROM teamOutbox WHERE sequence = ?",
            arguments: [numbers.randomElement(using: &random) ?? 0])
        case 7:
          let change = StandupsChange.random(in: standups, using: &random)
          try db.execute(
            sql: "UPDATE teamOutbox SET change = ?, basedOn = ? WHERE sequence = ?",
            arguments: [
              try text(of: change, using: &random), Int.random(in: 0..<50, using: &random),
              numbers.randomElement(using: &random) ?? 0,
            ])
        case 8:
          let accented = try Int64.fetchAll(
            db, sql: "SELECT sequence FROM teamOutbox WHERE instr(change, ?) > 0",
            arguments: ["\u{FC}"])
          try db.execute(
            sql: "UPDATE teamOutbox SET change = replace(change, ?, ?) WHERE sequence = ?",
            arguments: ["\u{FC}", "u\u{308}", accented.randomElement(using: &random) ?? 0])
        case 9:
          if let entry = held.entries.randomElement(using: &random) {
            held.remove(machineSequence: entry.machineSequence)
          }
        default:
          held = try TeamLedger.Outbox(of: TeamMembership.ID(2), db)
        }

        try held.readAgain(of: team, db)
        let plain = try TeamLedger.Outbox(of: team, db)
        #expect(try lines(of: held) == lines(of: plain), "seed \(seed), step \(step)")
      }
    }
    #expect(
      try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM teamOutbox") } ?? 0 > 10)
  }

  /// `change` as the outbox stores it, or, one time in eight, a change no release reads.
  private func text(
    of change: StandupsChange, using random: inout some RandomNumberGenerator
  ) throws -> String {
    guard Int.random(in: 0..<8, using: &random) > 0 else { return #"{"renamedTeam":{}}"# }
    return String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
  }

  /// An entry, its change as the bytes it encodes to: two changes whose texts are only
  /// canonically equivalent are equal as values, but write different bytes.
  private struct Line: Equatable {
    var machineSequence: Int64
    var basedOn: Int64
    var change: Data
    var fields: [String]
  }

  private func lines(of outbox: TeamLedger.Outbox) throws -> [Line] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try outbox.entries.map {
      Line(
        machineSequence: $0.machineSequence, basedOn: $0.basedOn,
        change: try encoder.encode($0.change), fields: $0.fields.map { "\($0.0).\($0.1)" })
    }
  }
}
