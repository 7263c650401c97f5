import Foundation
import GRDB
import IdentifiedCollections
import Models

// A standup this machine holds as its own under an ID the team's order uses: it was shared
// here once and left, or copied from a file. The team's takes its place; this machine's is kept
// apart, as a personal copy under a new ID.

extension TeamLedger {
  /// Makes room for a standup the team adds (or brings back with a meeting) that this machine
  /// holds as its own, not shared: the same standup, shared here once and left (or copied from a
  /// file). When this machine's copy has other values, the team's takes its place, as the order
  /// says every machine holds it, and this machine's is kept as a personal copy of its own under
  /// a new ID: nothing of the team's differs here, and nothing of this machine's is lost or sent.
  /// Returns the copies' titles.
  ///
  /// The team's standup is compared as it ends once the `later` changes of the same pull are
  /// applied: a machine back in a team it left holds the standup as the team's last changes made
  /// it, not as it was first added, and a copy equal to that holds nothing the team's lacks.
  /// Guarded by `LeaveAndJoinTests.backInTheTeamAfterEditsItHadPulledKeepsNoCopy`.
  static func keepApartOwnCopies(
    of change: StandupsChange, later: ArraySlice<PulledTeamChange> = [], makeID: () -> UUID,
    _ db: Database
  ) throws -> [String] {
    let theirs: [Standup]
    switch change {
    case .added(let standups): theirs = standups
    case .meetingRecorded(_, let standup): theirs = [standup]
    case .edited, .deleted: return []
    }
    var kept: [String] = []
    for standup in theirs {
      let key = standup.id.rawValue.uuidString
      guard
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM sharedStandup WHERE standupId = ?", arguments: [key])
          == 0,
        let own = try? StandupRows.fetchOne(db, id: standup.id), own != standup
      else { continue }
      guard own != team(standup, after: later) else {
        try StandupRecord.deleteOne(db, key: key)
        continue
      }
      let copy = Standup(
        id: Standup.ID(makeID()),
        attendees: IdentifiedArray(
          uniqueElements: own.attendees.map { Attendee(id: Attendee.ID(makeID()), name: $0.name) }
        ),
        duration: own.duration,
        meetings: IdentifiedArray(
          uniqueElements: own.meetings.map {
            Meeting(id: Meeting.ID(makeID()), date: $0.date, transcript: $0.transcript)
          }),
        theme: own.theme,
        title: "\(own.displayTitle) (kept here)")
      try StandupRecord.deleteOne(db, key: key)
      _ = try StandupsDatabase.write(.added([copy]), replacing: nil, db)
      kept.append(copy.title)
    }
    return kept
  }

  /// `standup` with the `later` changes about it applied, as every machine applies them; those
  /// that cannot be read are left out, as a pull skips them.
  private static func team(_ standup: Standup, after later: ArraySlice<PulledTeamChange>)
    -> Standup?
  {
    var standups: IdentifiedArrayOf<Standup> = [standup]
    let id = standup.id.rawValue.uuidString
    // NB: Only changes that name the standup are read: the others cannot touch it.
    for pulled in later where pulled.tooLarge == nil && pulled.change.contains(id) {
      if case .success(let change) = read(pulled.change) { change.apply(to: &standups) }
    }
    return standups[id: standup.id]
  }
}
