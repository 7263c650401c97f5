import Foundation
import GRDB
import Models

// A standup this machine holds as its own under an ID the team's order uses: it was shared
// here once and left, or copied from a file. The team's takes its place; this machine's is kept
// apart, as a personal copy under a new ID.

extension TeamLedger {
  /// Makes room for a standup the team adds (or brings back with a meeting) that this machine
  /// holds as its own, not shared: the same standup, shared here once and left (or copied from a
  /// file). When this machine's copy has other values, the team's takes its place, as the order
  /// says every machine holds it, and this machine's is kept as a personal copy of its own under
  /// a new ID, in its place in the list: nothing of the team's differs here, and nothing of this
  /// machine's is lost or sent.
  ///
  /// The team's standup is compared as the change adds it; a machine back in a team it left
  /// holds it as the team's last changes made it, which later changes of the pull may reach. So
  /// once the pull has caught up, the copies equal to the team's standup are removed again
  /// (``removeCopiesTheTeamCaughtUpWith(_:_:)``).
  static func keepApartOwnCopies(
    of change: StandupsChange, makeID: () -> UUID, _ db: Database
  ) throws -> [TeamPullReport.KeptCopy] {
    var kept: [TeamPullReport.KeptCopy] = []
    for standup in change.carried {
      let key = standup.id.rawValue.uuidString
      guard
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM sharedStandup WHERE standupId = ?", arguments: [key])
          == 0,
        let own = try? StandupRows.fetchOne(db, id: standup.id), own != standup,
        let position = try StandupRows.position(of: own.id, db)
      else { continue }
      let copy = TeamPullReport.KeptCopy(keepingApart: own, makeID: makeID)
      try StandupsDatabase.checkRules(copy.copy)
      try StandupRows.delete(standup.id, db)
      try StandupRows.insert(copy.copy, at: position, db)
      kept.append(copy)
    }
    return kept
  }

  /// Removes each copy of `kept` whose standup the team now holds as this machine held it, the
  /// copy untouched since: the copy holds nothing the team's lacks. Returns the copies still
  /// kept (a copy the user has deleted meanwhile is not among them; one they changed is).
  /// Guarded by `LeaveAndJoinTests.backInTheTeamWithNothingChangedMeanwhileKeepsNoCopy`.
  static func removeCopiesTheTeamCaughtUpWith(
    _ kept: [TeamPullReport.KeptCopy], _ db: Database
  ) throws -> [TeamPullReport.KeptCopy] {
    var stillKept: [TeamPullReport.KeptCopy] = []
    for kept in kept {
      guard let copy = try StandupRows.fetchOne(db, id: kept.copy.id) else { continue }
      guard copy == kept.copy, try StandupRows.fetchOne(db, id: kept.held.id) == kept.held else {
        stillKept.append(kept)
        continue
      }
      try StandupRows.delete(kept.copy.id, db)
    }
    return stillKept
  }

  /// Puts each copy of `kept` back as the standup this machine held before the team's took its
  /// ID, in the copy's place in the list, which was its own: for a join whose sync failed, which
  /// leaves the team again. A copy the user has changed or deleted since is theirs,
  /// and stays as it is; the team's standup then stays beside it, as a personal one.
  /// Guarded by `JoinCutShortTests.aJoinCutShortPutsBackWhatItKeptApart`.
  static func putBackOwnCopies(_ kept: [TeamPullReport.KeptCopy], _ db: Database) throws {
    for kept in kept.reversed() {
      guard let position = try StandupRows.position(of: kept.copy.id, db),
        try StandupRows.fetchOne(db, id: kept.copy.id) == kept.copy
      else { continue }
      try StandupRows.delete(kept.copy.id, db)
      try StandupRows.delete(kept.held.id, db)
      try StandupRows.insert(kept.held, at: position, db)
    }
  }
}
