import Foundation
import GRDB
import IdentifiedCollections
import Models

// What this machine tells its user about the team's changes: a value of its own another
// member's change replaced. (A standup the team deleted while it was changed here is asked
// about: TeamLedger+Deletions.swift.)

extension TeamLedger {
  /// The fields an edit sets, as `teamFieldOwner` names them.
  static func fieldsSet(by change: StandupsChange) -> [(String, String)] {
    guard case .edited(let id, let edit) = change else { return [] }
    return TeamField.set(by: edit).map { (id.rawValue.uuidString, $0.column) }
  }

  /// Marks `fields` (standup, field) as set here last (`owned`): another member's change that
  /// replaces one of them without having seen it is told
  /// (``tellReplaced(by:of:_:_:at:makeID:_:)``). Unmarks them otherwise: another member's value
  /// replaced this machine's, which is theirs now.
  static func setOwnedHere(_ fields: [(String, String)], to owned: Bool, _ db: Database) throws {
    for (standup, field) in fields {
      try executeCached(
        sql: owned
          ? "INSERT OR IGNORE INTO teamFieldOwner (standupId, field) VALUES (?, ?)"
          : "DELETE FROM teamFieldOwner WHERE standupId = ? AND field = ?",
        arguments: [standup, field], db)
    }
  }

  /// Records the values of this machine's that another machine's `change` replaces without
  /// having seen them: the server ordered it last, so it wins everywhere, and this machine's
  /// user is told. A field a change still waiting here sets again is not told: that change will
  /// be ordered later, and win.
  static func tellReplaced(
    by change: StandupsChange, of member: String, _ fields: [(String, String)], _ outbox: Outbox,
    at now: Date, makeID: () -> UUID, _ db: Database
  ) throws {
    guard case .edited(let id, let edit) = change, !fields.isEmpty else { return }
    let key = id.rawValue.uuidString
    let owned = Set(
      try String.fetchAll(
        db.cachedStatement(sql: "SELECT field FROM teamFieldOwner WHERE standupId = ?"),
        arguments: [key]))
    // NB: Every value an edit replaces is in a field it sets (`fields`), so the outbox and the
    // standup are read only when one of those is still this machine's: for most pulled changes,
    // none is.
    guard fields.contains(where: { owned.contains($0.1) }) else { return }
    let waiting = Set(outbox.entries.flatMap(\.fields).filter { $0.0 == key }.map(\.1))
    guard fields.contains(where: { owned.contains($0.1) && !waiting.contains($0.1) }),
      let stored = try? StandupRows.fetchOne(db, id: id)
    else { return }
    for replacement in edit.valuesReplaced(in: stored) + edit.attendeesReplaced(in: stored) {
      let field = TeamField(of: replacement.replaced).column
      guard owned.contains(field), !waiting.contains(field) else { continue }
      try ReplacedValueRecord.insert(
        replacement, in: stored, by: .team, member: member, id: makeID(), at: now, db)
    }
  }
}
