import Foundation
import GRDB
import IdentifiedCollections
public import Models

// Changes elsewhere: what other connections — another instance of the app, `standups import`, the
// `sqlite3` shell — committed since this one last read them. An idle read takes one pragma; a read
// after a commit fetches only the standups whose rows it changed. A replaced value a read told is
// put away here once the user has read it.

extension StandupsDatabase {
  /// What a read of other instances' commits has seen, to read only past it next time.
  struct CommitsSeen {
    /// `PRAGMA data_version` at the last read: it changes when another connection commits.
    var dataVersion = 0
    /// The highest `standupChange.sequence` seen.
    var sequence = 0
    /// The values replaced by other processes' saves last reported.
    var replacedValues: [ReplacedValue] = []
  }

  /// What other connections committed since the last read: the standups whose rows changed, as
  /// they are now, those that are gone, those that cannot be read, and the values other
  /// processes' saves replaced; `nil` when nothing was committed.
  ///
  /// A change log that went back (another program emptied `standupChange`) cannot say what
  /// changed: the read then fetches every standup (``ChangesElsewhere/isComplete``), rather than
  /// go quiet.
  ///
  /// - Throws: ``StorageError/replaced(_:)`` when the file at the path is no longer the one open.
  public func changesElsewhere() throws(StorageError) -> ChangesElsewhere? {
    guard let queue else { return nil }
    try checkItIsStillTheFileAtItsPath()
    let seen = commitsSeen
    let owner = options.owner
    let readsReplacedValues = isOpeningFinished && access == .readWrite
    let (now, changes) = try reading(queue) { db -> (CommitsSeen, ChangesElsewhere?) in
      let version = try Self.dataVersion(db)
      guard version != seen.dataVersion else { return (seen, nil) }
      var now = seen
      now.dataVersion = version
      var changes = ChangesElsewhere()
      let last = try Self.lastSequence(db)
      if last < seen.sequence {
        let read = try StandupRows.fetchAll(db)
        changes = ChangesElsewhere(
          standups: read.standups, unreadable: read.unreadable, isComplete: true)
      } else if last > seen.sequence {
        let ids = try String.fetchAll(
          db,
          sql: "SELECT standupId FROM standupChange WHERE sequence > ? ORDER BY sequence",
          arguments: [seen.sequence])
        let read = try StandupRows.fetch(db, ids: ids.map(Standup.ID.init(uuidString:)))
        let unreadable = Set(read.unreadable.map(\.id))
        changes.standups = read.standups
        changes.unreadable = read.unreadable
        changes.deleted = ids.filter { !unreadable.contains($0) }
          .map(Standup.ID.init(uuidString:)).filter { read.standups[id: $0] == nil }
      }
      changes.deletedBy = try Self.teamDeletions(of: changes.deleted, db)
      now.sequence = last
      if readsReplacedValues {
        let replaced = try ReplacedValueRecord.fetchAll(db, notReplacedBy: .process(owner))
        if replaced != seen.replacedValues {
          changes.replacedValues = replaced
          now.replacedValues = replaced
        }
      }
      return (now, changes.isEmpty ? nil : changes)
    }
    commitsSeen = now
    return changes
  }
}

extension StandupsDatabase {
  /// Who in the team deleted each of `deleted`, as the team's changes that deleted them said.
  static func teamDeletions(of deleted: [Standup.ID], _ db: Database) throws -> [Standup.ID: String]
  {
    guard !deleted.isEmpty, try db.tableExists("teamDeletedBy") else { return [:] }
    var members: [Standup.ID: String] = [:]
    for id in deleted {
      if let member = try String.fetchOne(
        db.cachedStatement(sql: "SELECT member FROM teamDeletedBy WHERE standupId = ?"),
        arguments: [id.rawValue.uuidString])
      {
        members[id] = member
      }
    }
    return members
  }

  /// Forgets a value another save replaced: the user has read about it.
  public func putAwayReplacedValue(_ id: ReplacedValue.ID) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      _ = try ReplacedValueRecord.deleteOne(db, key: id.rawValue.uuidString)
    }
    commitsSeen.replacedValues.removeAll { $0.id == id }
  }
}
