import Foundation
import GRDB
public import IdentifiedCollections
public import Models

extension StandupsDatabase {
  /// Commits `change` as one transaction that writes only the rows and columns it changes, with
  /// the same meaning as ``Models/StandupsChange/apply(to:)`` on what the app shows: an edit is
  /// applied to the standup as stored now, and a meeting recorded for a standup deleted
  /// meanwhile brings the standup back.
  @discardableResult
  public func apply(_ change: StandupsChange) throws(StorageError) -> ChangeOutcome {
    let queue = try writableQueue()
    let owner = options.owner
    return try commit(queue) { db -> ChangeOutcome in
      switch change {
      case .added(let standups):
        var position = try StandupRows.nextPosition(db)
        for standup in standups
        where try !StandupRecord.exists(db, key: standup.id.rawValue.uuidString) {
          try StandupRows.insert(standup, at: position, db)
          position += 1
        }
      case .edited(let id, let edit):
        guard let stored = try StandupRows.fetchOne(db, id: id) else { return .standupGone(id) }
        try StandupRows.write(from: stored, to: edit.applied(to: stored), db)
      case .deleted(let id):
        try StandupRecord.deleteOne(db, key: id.rawValue.uuidString)
      case .meetingRecorded(let meeting, let standup):
        if let stored = try StandupRows.fetchOne(db, id: standup.id) {
          var recorded = stored
          recorded.record(meeting)
          try StandupRows.write(from: stored, to: recorded, db)
        } else {
          var restored = standup
          restored.record(meeting)
          try StandupRows.insert(restored, at: StandupRows.nextPosition(db), db)
        }
        try MeetingInProgressRecord.deleteOne(
          db, key: ["standupId": standup.id.rawValue.uuidString, "owner": owner])
      }
      return .applied
    }
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
  /// when it was last written — bringing its standup back if it was deleted meanwhile — in one
  /// transaction.
  func recoverInterruptedMeetings(_ queue: DatabaseQueue) throws(StorageError) -> [RecoveredMeeting]
  {
    let makeID = options.makeMeetingID
    return try commit(queue) { db in
      var recovered: [RecoveredMeeting] = []
      for record in try MeetingInProgressRecord.fetchAll(db)
      where !ProcessIdentity.isRunning(record.owner) {
        let meeting = Meeting(
          id: Meeting.ID(makeID()),
          date: Date(timeIntervalSinceReferenceDate: record.updatedAt),
          transcript: record.transcript
        )
        if let stored = try StandupRows.fetchOne(db, id: Standup.ID(uuidString: record.standupId)) {
          var recorded = stored
          recorded.record(meeting)
          try StandupRows.write(from: stored, to: recorded, db)
          recovered.append(
            RecoveredMeeting(standupID: stored.id, standupTitle: stored.title, meeting: meeting))
        } else if var standup = try? JSONDecoder().decode(
          Standup.self, from: Data(record.standup.utf8))
        {
          standup.record(meeting)
          try StandupRows.insert(standup, at: StandupRows.nextPosition(db), db)
          recovered.append(
            RecoveredMeeting(standupID: standup.id, standupTitle: standup.title, meeting: meeting))
        }
        try record.delete(db)
      }
      return recovered
    }
  }

  // MARK: - Importing

  /// Brings `standups` in, in one transaction, losing nothing: a standup the database lacks is
  /// added; one it has takes the file's title, length and theme, and the file's attendees and
  /// meetings are added to its own (an import never removes anything).
  ///
  /// - Parameter path: The file the standups came from, for the report.
  public func importStandups(
    _ standups: IdentifiedArrayOf<Standup>,
    from path: String
  ) throws(StorageError) -> ImportReport {
    let queue = try writableQueue()
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
      guard let stored = try StandupRows.fetchOne(db, id: standup.id) else {
        try StandupRows.insert(standup, at: position, db)
        position += 1
        report.added.append(standup.displayTitle)
        continue
      }
      let imported = StandupEdit(from: stored, to: standup).withoutRemovals.applied(to: stored)
      let edit = StandupEdit(from: stored, to: imported)
      guard !edit.isEmpty else {
        report.unchanged += 1
        continue
      }
      try StandupRows.write(from: stored, to: imported, db)
      report.changed.append(
        ImportReport.ChangedStandup(title: imported.displayTitle, parts: edit.changedParts))
    }
    return report
  }

  /// Imports the data file of an earlier release into the new database; a file that is not
  /// there imports nothing, and one that cannot be read is left for the user to mend.
  func importOnFirstLaunch(from file: String, into queue: DatabaseQueue) -> FirstLaunchImport? {
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
    do throws(StorageError) {
      return .imported(
        try commit(queue) { db in try Self.importStandups(standups, from: file, db) })
    } catch {
      return .failed(path: file, reason: error.description)
    }
  }
}

/// A row of `meetingInProgress`.
struct MeetingInProgressRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "meetingInProgress"

  var standupId: String
  var owner: String
  /// Seconds since 2001-01-01 UTC.
  var startedAt: Double
  /// Seconds since 2001-01-01 UTC.
  var updatedAt: Double
  var transcript: String
  /// The standup in the JSON file format.
  var standup: String

  init(_ meeting: MeetingInProgress, owner: String, at date: Date) throws(StorageError) {
    standupId = meeting.standup.id.rawValue.uuidString
    self.owner = owner
    startedAt = meeting.startedAt.timeIntervalSinceReferenceDate
    updatedAt = date.timeIntervalSinceReferenceDate
    transcript = meeting.transcript
    do {
      standup = String(decoding: try JSONEncoder().encode(meeting.standup), as: UTF8.self)
    } catch {
      throw .writeFailed(
        FileProblem(
          path: "", reason: .other("the standup could not be encoded"),
          technicalDetail: "encode: \(error)"))
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
