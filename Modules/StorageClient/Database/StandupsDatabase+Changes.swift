import Foundation
import GRDB
public import Models

extension StandupsDatabase {
  /// Commits `change` as one transaction that writes only the rows and columns it changes, with
  /// the same meaning as ``/Models/StandupsChange/apply(to:)`` on what the app shows: an edit is
  /// applied to the standup as stored now, and a meeting recorded for a standup deleted
  /// meanwhile brings the standup back.
  ///
  /// An edit that replaces a value saved elsewhere after the edit's form opened on it records
  /// the value replaced (``/Models/ReplacedValue``), for the other instances to tell their
  /// users; one that renames an attendee removed elsewhere keeps the attendee, and says so.
  ///
  /// - Throws: ``StorageError/unreadableStandup(_:)`` when the standup's stored rows cannot be
  ///   read, ``StorageError/Refusal/breaksRule(_:_:)`` when the result would break
  ///   ``/Models/StandupRules``, and any failure to write.
  @discardableResult
  public func apply(_ change: StandupsChange) throws(StorageError) -> ChangeOutcome {
    let queue = try writableQueue()
    let owner = options.owner
    let now = options.now()
    let makeID = options.makeMeetingID
    return try commit(queue) { db -> ChangeOutcome in
      let outcome = try Self.write(change, replacing: (owner, now, makeID), db)
      if case .standupGone = outcome { return outcome }
      try TeamLedger.addToOutbox(change, db)
      if case .meetingRecorded(_, let standup) = change {
        try Self.forgetMeetingInProgress(of: standup.id, by: owner, db)
      }
      return outcome
    }
  }

  /// Writes the rows `change` changes, with ``apply(_:)``'s meaning. With `replacing`, an edit
  /// that replaces a value saved elsewhere records it, as that save's; without it (a change
  /// the team's server ordered), values are replaced without a record.
  static func write(
    _ change: StandupsChange,
    replacing: (owner: String, now: Date, makeID: @Sendable () -> UUID)?,
    _ db: Database
  ) throws -> ChangeOutcome {
    switch change {
    case .added(let standups):
      var position = try StandupRows.nextPosition(db)
      for standup in standups
      where try !StandupRows.isStored(standup.id, db) {
        try checkRules(standup)
        try StandupRows.insert(standup, at: position, db)
        position += 1
      }
      return .applied
    case .edited(let id, let edit):
      guard let stored = try StandupRows.fetchOne(db, id: id) else { return .standupGone(id) }
      let edited = edit.applied(to: stored)
      try checkRules(edited)
      try StandupRows.write(from: stored, to: edited, db)
      if let replacing {
        for replacement in edit.valuesReplaced(in: stored) {
          try ReplacedValueRecord.insert(
            replacement, in: stored, by: .process(replacing.owner), id: replacing.makeID(),
            at: replacing.now, db)
        }
      }
      let kept = edit.attendeesRenamedButGone(in: stored)
      return kept.isEmpty ? .applied : .renamedAttendeesKept(id, kept)
    case .deleted(let id):
      try StandupRows.delete(id, db)
      return .applied
    case .meetingRecorded(let meeting, let standup):
      let stored = try StandupRows.fetchOne(db, id: standup.id)
      var recorded = stored ?? standup
      recorded.record(meeting)
      try checkRules(recorded)
      if let stored {
        try StandupRows.write(from: stored, to: recorded, db)
      } else {
        try StandupRows.insert(recorded, at: StandupRows.nextPosition(db), db)
      }
      return .applied
    }
  }

  /// Throws when `standup` breaks one of ``/Models/StandupRules``: what enters the database is
  /// what reads back.
  static func checkRules(_ standup: Standup) throws {
    if let violation = StandupRules.violation(in: standup) {
      throw StorageError.refused(.breaksRule(standup.displayTitle, violation))
    }
  }
}
