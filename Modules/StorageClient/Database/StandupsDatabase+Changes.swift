import Foundation
import GRDB
public import IdentifiedCollections
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
      try TeamLedger.keep(change, db)
      if case .meetingRecorded(_, let standup) = change {
        try MeetingInProgressRecord.deleteOne(
          db, key: ["standupId": standup.id.rawValue.uuidString, "owner": owner])
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
          try ReplacedValueRecord(
            ReplacedValue(
              id: ReplacedValue.ID(replacing.makeID()), standupID: id,
              standupTitle: stored.displayTitle, value: replacement.replaced,
              replacement: replacement.replacement, replacedAt: replacing.now),
            replacedBy: .process(replacing.owner)
          ).insert(db)
        }
      }
      let kept = edit.attendeesRenamedButGone(in: stored)
      return kept.isEmpty ? .applied : .renamedAttendeesKept(id, kept)
    case .deleted(let id):
      try StandupRecord.deleteOne(db, key: id.rawValue.uuidString)
      return .applied
    case .meetingRecorded(let meeting, let standup):
      if let stored = try StandupRows.fetchOne(db, id: standup.id) {
        var recorded = stored
        recorded.record(meeting)
        try checkRules(recorded)
        try StandupRows.write(from: stored, to: recorded, db)
      } else {
        var restored = standup
        restored.record(meeting)
        try checkRules(restored)
        try StandupRows.insert(restored, at: StandupRows.nextPosition(db), db)
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

  /// Forgets a value another save replaced: the user has read about it.
  public func putAwayReplacedValue(_ id: ReplacedValue.ID) throws(StorageError) {
    let queue = try writableQueue()
    try commit(queue) { db in
      _ = try ReplacedValueRecord.deleteOne(db, key: id.rawValue.uuidString)
    }
    commitsSeen.replacedValues.removeAll { $0.id == id }
  }

  /// Writes what a meeting being recorded has heard so far, in place of what was written for it
  /// before.
  public func saveMeetingInProgress(_ meeting: MeetingInProgress) throws(StorageError) {
    let queue = try writableQueue()
    let record = try MeetingInProgressRecord(meeting, owner: options.owner, at: options.now())
    try commit(queue) { db in try record.save(db) }
  }

  /// Forgets the meeting being recorded for `standupID`: it was discarded.
  public func discardMeetingInProgress(_ standupID: Standup.ID) throws(StorageError) {
    let queue = try writableQueue()
    let owner = options.owner
    try commit(queue) { db in
      _ = try MeetingInProgressRecord.deleteOne(
        db, key: ["standupId": standupID.rawValue.uuidString, "owner": owner])
    }
  }

  /// Keeps every meeting whose recording process is gone as a past meeting of its standup, dated
  /// when it was last written — bringing its standup back if it was deleted meanwhile.
  func recoverInterruptedMeetings(_ db: Database) throws -> [RecoveredMeeting] {
    var recovered: [RecoveredMeeting] = []
    for interrupted in try InterruptedMeeting.fetchAll(db, makeID: options.makeMeetingID)
    where !interrupted.isBeingRecorded {
      let title: String
      if let stored = try StandupRows.fetchOne(db, id: interrupted.standup.id) {
        var recorded = stored
        recorded.record(interrupted.meeting)
        try StandupRows.write(from: stored, to: recorded, db)
        title = stored.displayTitle
      } else {
        var standup = interrupted.standup
        standup.record(interrupted.meeting)
        try StandupRows.insert(standup, at: StandupRows.nextPosition(db), db)
        title = standup.displayTitle
      }
      try TeamLedger.keep(.meetingRecorded(interrupted.meeting, standup: interrupted.standup), db)
      recovered.append(
        RecoveredMeeting(
          standupID: interrupted.standup.id, standupTitle: title, meeting: interrupted.meeting))
      try interrupted.record.delete(db)
    }
    return recovered
  }

  // MARK: - Importing

  /// Brings `standups` in, in one transaction, losing nothing: a standup the database lacks is
  /// added; one it has takes the file's title, length and theme, and the file's attendees and
  /// meetings are added to its own (an import never removes anything). A standup the database
  /// holds in a form this release cannot read is replaced by the file's copy, and the report
  /// says so.
  ///
  /// - Parameters:
  ///   - standups: The standups the file holds.
  ///   - path: The file the standups came from, for the report.
  public func importStandups(
    _ standups: IdentifiedArrayOf<Standup>,
    from path: String
  ) throws(StorageError) -> ImportReport {
    let queue = try writableQueue()
    if !isOpeningFinished { _ = try finishOpening() }
    return try commit(queue) { db in try Self.importStandups(standups, from: path, db) }
  }

  private static func importStandups(
    _ standups: IdentifiedArrayOf<Standup>,
    from path: String,
    _ db: Database
  ) throws -> ImportReport {
    var report = ImportReport(path: path)
    var position = try StandupRows.nextPosition(db)
    for standup in standups {
      try checkRules(standup)
      let stored: Standup?
      do {
        stored = try StandupRows.fetchOne(db, id: standup.id)
      } catch let unreadable as UnreadableStandup {
        let at = try StandupRows.position(of: standup.id, db)
        try StandupRecord.deleteOne(db, key: standup.id.rawValue.uuidString)
        try StandupRows.insert(standup, at: at ?? position, db)
        report.replacedUnreadable.append(unreadable.title)
        report.standupIDs.append(standup.id)
        continue
      }
      guard let stored else {
        try StandupRows.insert(standup, at: position, db)
        position += 1
        report.added.append(standup.displayTitle)
        report.standupIDs.append(standup.id)
        continue
      }
      let imported = StandupEdit(from: stored, to: standup).withoutRemovals.applied(to: stored)
      let edit = StandupEdit(from: stored, to: imported)
      guard !edit.isEmpty else {
        report.unchanged += 1
        continue
      }
      try StandupRows.write(from: stored, to: imported, db)
      try TeamLedger.keep(.edited(standup.id, edit), db)
      report.changed.append(
        ImportReport.ChangedStandup(title: imported.displayTitle, parts: edit.changedParts))
      report.standupIDs.append(standup.id)
    }
    return report
  }

  /// Imports the data file of an earlier release; `nil` when there is no such file, and a
  /// failure that says why when it cannot be read.
  func importOnFirstLaunch(from file: String, _ db: Database) throws -> FirstLaunchImport? {
    let data: Data
    switch FileSystem.live.read(file) {
    case .success(let bytes): data = bytes
    case .failure(let error) where error.code == ENOENT: return nil
    case .failure(let error):
      // NB: The reason alone: the notice that tells it names the file, once.
      return .failed(path: file, reason: error.problem(at: "").description)
    }
    let standups: IdentifiedArrayOf<Standup>
    do throws(StandupsFileError) {
      standups = try StandupsFile.decode(data).standups
    } catch {
      return .failed(path: file, reason: error.description)
    }
    do {
      return .imported(try Self.importStandups(standups, from: file, db))
    } catch let error as StorageError where error.concernsOnlyItsChange {
      return .failed(path: file, reason: error.description)
    }
  }
}

extension FirstLaunchImport {
  /// What the database keeps of it (``Metadata/earlierReleaseFile``).
  var record: String {
    switch self {
    case .imported(let report): "brought in from \(report.path)"
    case .failed(let path, let reason): "not brought in from \(path): \(reason)"
    }
  }
}

extension Standup.ID {
  /// The ID whose text is `text`; a nil UUID for text that is not one, which matches no row.
  init(uuidString text: String) {
    self.init(
      UUID(uuidString: text) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
  }
}
