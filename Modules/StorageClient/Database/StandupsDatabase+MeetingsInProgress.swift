import Foundation
import GRDB
public import Models

// A meeting being recorded, written as it goes, so that a process killed mid-meeting loses no
// line: the next launch keeps it as a past meeting of its standup.

extension StandupsDatabase {
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
    try commit(queue) { db in try Self.forgetMeetingInProgress(of: standupID, by: owner, db) }
  }

  /// Forgets what `owner`, this process, has recorded of a meeting of `standupID`: the meeting
  /// was discarded, or kept (``apply(_:)``, in the transaction that keeps it).
  static func forgetMeetingInProgress(
    of standupID: Standup.ID, by owner: String, _ db: Database
  ) throws {
    _ = try MeetingInProgressRecord.deleteOne(
      db, key: ["standupId": standupID.rawValue.uuidString, "owner": owner])
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
      try TeamLedger.addToOutbox(
        .meetingRecorded(interrupted.meeting, standup: interrupted.standup), db)
      recovered.append(
        RecoveredMeeting(
          standupID: interrupted.standup.id, standupTitle: title, meeting: interrupted.meeting))
      try interrupted.record.delete(db)
    }
    return recovered
  }
}
