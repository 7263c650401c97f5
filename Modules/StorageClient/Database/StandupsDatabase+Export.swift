import Foundation
import GRDB
public import IdentifiedCollections
public import Models

// Reading for `standups export`: every standup of a database opened only to read, with the
// meetings a crash interrupted, writing nothing.

extension StandupsDatabase {
  /// Every standup, from a database opened only to read (`standups export`): nothing is
  /// written. A meeting whose recording app stopped (a crash) is in it as the past meeting the
  /// next launch will keep, under the same ID; one another instance is recording now is not, and
  /// is named.
  public func contents() throws(StorageError) -> DatabaseContents {
    let queue: DatabaseQueue
    if let path {
      let location = DataFileLocation.inspect(path)
      switch location {
      case .missing(let file):
        throw .unreadable(
          FileProblem(path: file, reason: .doesNotExist, technicalDetail: "lstat: no database"))
      case .file(let file):
        let reason = DataFileLocation.readOnlyReason(ofFileAt: file)
        queue =
          try openReadOnly(
            file, reason: reason ?? .readOnlyFile(path: file), isImmutable: reason != nil
          ).queue
      default:
        guard let opened = try open(location).queue else { return DatabaseContents() }
        queue = opened
      }
    } else {
      queue = try inMemoryQueue()
    }
    return try reading(queue) { db in
      let read = try StandupRows.fetchAll(db)
      var contents = DatabaseContents(standups: read.standups, unreadable: read.unreadable)
      for interrupted in try InterruptedMeeting.fetchAll(db, makeID: options.makeMeetingID) {
        guard !interrupted.isBeingRecorded else {
          contents.meetingsBeingRecorded.append(interrupted.standup.displayTitle)
          continue
        }
        var standup = contents.standups[id: interrupted.standup.id] ?? interrupted.standup
        standup.record(interrupted.meeting)
        contents.standups[id: standup.id] = standup
        contents.interruptedMeetings.append(standup.displayTitle)
      }
      return contents
    }
  }

  /// The standups ``contents()`` holds.
  public func readStandups() throws(StorageError) -> IdentifiedArrayOf<Standup> {
    try contents().standups
  }
}
