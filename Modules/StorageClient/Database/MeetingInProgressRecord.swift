import Foundation
import GRDB
import Models

/// A row of `meetingInProgress`: what a meeting being recorded has heard so far.
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
  /// The ID the meeting gets if it is recovered; absent from rows written before "standups v2".
  var meetingId: String?

  init(_ meeting: MeetingInProgress, owner: String, at date: Date) throws(StorageError) {
    standupId = meeting.standup.id.rawValue.uuidString
    self.owner = owner
    startedAt = meeting.startedAt.timeIntervalSinceReferenceDate
    updatedAt = date.timeIntervalSinceReferenceDate
    transcript = meeting.transcript
    meetingId = meeting.id.rawValue.uuidString
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

/// A meeting whose recording was written as it went: the past meeting it becomes if its
/// recording app has stopped, and whether that app still runs.
struct InterruptedMeeting {
  var record: MeetingInProgressRecord
  /// Its standup: as stored, or as the recorder had it when the row was written.
  var standup: Standup
  /// The meeting it becomes, dated when it was last written.
  var meeting: Meeting
  /// Whether the app recording it still runs (``ProcessIdentity``): then it is not interrupted.
  var isBeingRecorded: Bool

  /// Every meeting being recorded; one whose standup cannot be read at all is left out.
  /// `makeID` names a meeting written before meetings in progress had IDs.
  static func fetchAll(
    _ db: Database,
    makeID: @Sendable () -> UUID
  ) throws -> [InterruptedMeeting] {
    try MeetingInProgressRecord.fetchAll(db).compactMap { record in
      guard
        let standup = try? StandupRows.fetchOne(db, id: Standup.ID(uuidString: record.standupId))
          ?? JSONDecoder().decode(Standup.self, from: Data(record.standup.utf8))
      else { return nil }
      let id = record.meetingId.flatMap(UUID.init(uuidString:)) ?? makeID()
      let date = Date(timeIntervalSinceReferenceDate: record.updatedAt)
      guard StandupRules.violation(ofMeetingDate: date) == nil else { return nil }
      return InterruptedMeeting(
        record: record,
        standup: standup,
        meeting: Meeting(id: Meeting.ID(id), date: date, transcript: record.transcript),
        isBeingRecorded: ProcessIdentity.isRunning(record.owner))
    }
  }
}
