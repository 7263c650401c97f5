import Foundation
import GRDB
import Models

// A machine starting from the team's compacted state (``CompactedTeamState``) rather than from
// each change: one joining a team whose history was compacted, or one whose place in the
// history the owner pruned while it was away.
//
// Replaying the changes in order is the plain version of this, and what the state is made by:
// `standups team prune` applies the changes to a database in memory with `applyPulled`, starting
// from the previous state with this function. `CompactedStateTests` checks that a machine that
// started from the state and one that replayed every change end with the same standups.

extension TeamLedger {
  /// Makes this machine's shared standups the state's, then applies this machine's own changes
  /// still waiting over them again, in one transaction; returns what it did.
  ///
  /// - Each standup of the state replaces the one here, whole: its fields, attendees and
  ///   meetings. A value of this machine's it replaces is this machine's no longer, and is not
  ///   told (a pulled change's is): the state cannot say whether its author had seen it.
  /// - A standup of the state that is here but not shared (this machine left the team and joined
  ///   it again, and changed it meanwhile) is kept apart as a personal copy, as a replay keeps it
  ///   (``keepApartOwnCopies(of:makeID:_:)``): a machine that starts from the state loses
  ///   nothing a replay would have kept.
  /// - A shared standup the state lacks was deleted by the team, and is deleted here too, unless
  ///   its share is still on its way to the server, or this machine changed it (a change still
  ///   in the outbox, or one the server ordered): then the user is asked, as when a pulled
  ///   deletion meets a change here. The state cannot say whether the deletion had seen the
  ///   change, so it asks where a replay might not have.
  /// - This machine's changes the state holds (by `role`'s machine, up to the number the state
  ///   folded in) leave the outbox, since they will not come back in a pull; the others stay,
  ///   and are ordered after everything when pushed.
  /// - The standups `keeping` names stay as they are here, and are sent again, whole, after the
  ///   pull (``resend(_:_:)``): what a machine does when the server forgot changes it had and can
  ///   no longer replay its history to it.
  static func startFrom(
    _ state: CompactedTeamState, in team: TeamMembership.ID, as role: String,
    keeping: Set<Standup.ID> = [], at now: Date, makeID: () -> UUID, _ db: Database
  ) throws -> TeamPullReport {
    var report = TeamPullReport()
    guard let membership = try TeamMembership.fetch(team, db) else { return report }
    report.startedFromCompactedState = state.through
    var outbox = try Outbox(of: team, db)
    let changedHere = try standupsChanged(in: outbox, db)
    let folded = state.machinesSeen[MemberMachine(madeBy: role, machine: membership.machine)] ?? 0
    try db.execute(
      sql: "DELETE FROM teamOutbox WHERE membership = ? AND sequence <= ?",
      arguments: [team.rawValue, folded])
    outbox.entries.removeAll { $0.machineSequence <= folded }
    try db.execute(
      sql: "DELETE FROM teamDeletionQuestion WHERE keptAs <= ?", arguments: [folded])
    let sharedBefore = try sharedIDs(in: team, db)
    let othersTeams = try sharedTeams(db).filter { $0.value != team }

    var inState = Set<Standup.ID>()
    for standup in state.standups where !keeping.contains(standup.id) {
      // NB: A standup is in one team: the state's standup under the ID of one another team
      // shares here was written so by a member, and stays out (as `readUnlessSkipped` says).
      guard othersTeams[standup.id] == nil else {
        report.skipped.append(
          TeamPullReport.Skipped(
            sequence: state.through, madeBy: nil, reason: anotherTeamsStandup))
        continue
      }
      inState.insert(standup.id)
      if !sharedBefore.contains(standup.id) {
        report.keptApart += try keepApartOwnCopies(of: .added([standup]), makeID: makeID, db)
      }
      if let problem = try replace(with: standup, db) {
        report.skipped.append(
          TeamPullReport.Skipped(
            sequence: state.through, madeBy: nil, reason: problem))
        continue
      }
      report.standupIDs.insert(standup.id)
      try noteShared(standup.id, in: team, db)
      try noteBroughtBack(standup.id, db)
      // NB: Which change was the standup's last is not in the state; a restore after this
      // sends it again, which a standup whose last change is unknown always is.
      try executeCached(
        sql: "DELETE FROM teamStandupLastChange WHERE standupId = ?",
        arguments: [standup.id.rawValue.uuidString], db)
    }

    for id in sharedBefore.subtracting(inState).subtracting(keeping) {
      let waiting = outbox.entries.map(\.change).filter { $0.standupIDs.contains(id) }
      if waiting.contains(where: \.bringsBack) { continue }
      guard try StandupRows.isStored(id, db) else { continue }
      if changedHere.contains(id) {
        try askAboutDeletion(of: id, by: "a member of the team", db)
        report.deletedWhileChangedHere.append(id)
        continue
      }
      try StandupRows.delete(id, db)
      report.standupIDs.insert(id)
    }

    try applyAgain(outbox, to: inState, db)
    try noteLastChangesSeen(state.machinesSeen, in: team, db)
    try noteToResend(keeping, db)
    try db.execute(
      sql: """
        UPDATE teamMembership SET lastSequence = ?, lastSyncedAt = ?,
          resharePending = resharePending OR ?
        WHERE id = ?
        """,
      arguments: [
        state.through, now.timeIntervalSinceReferenceDate, !keeping.isEmpty, team.rawValue,
      ])
    return report
  }

  /// The standups this machine changed: with a change in its `outbox`, pushed or not, that is
  /// not a deletion, or one of its changes the server ordered (`teamOwnChange`).
  private static func standupsChanged(in outbox: Outbox, _ db: Database) throws
    -> Set<Standup.ID>
  {
    var ids = Set<Standup.ID>()
    for entry in outbox.entries {
      if case .deleted = entry.change { continue }
      ids.formUnion(entry.change.standupIDs)
    }
    for text in try String.fetchAll(db, sql: "SELECT standupId FROM teamOwnChange") {
      if let uuid = UUID(uuidString: text) { ids.insert(Standup.ID(uuid)) }
    }
    return ids
  }

  /// Makes the standup here `standup`, inserting it at the end of the list when it is not here;
  /// returns why it could not, when the standup here cannot be read or `standup` breaks a rule,
  /// which writes nothing.
  static func replace(with standup: Standup, _ db: Database) throws -> String? {
    if let violation = StandupRules.violation(in: standup) {
      return StorageError.refused(.breaksRule(standup.displayTitle, violation)).description
    }
    let stored: Standup?
    do {
      stored = try StandupRows.fetchOne(db, id: standup.id)
    } catch let error as UnreadableStandup {
      return cannotRead(error)
    }
    guard let stored else {
      try StandupRows.insert(standup, at: StandupRows.nextPosition(db), db)
      return nil
    }
    // NB: Not told: the state cannot say whether whoever replaced a value of this machine's had
    // seen it, and a notice that says so unseen could be wrong.
    try setOwnedHere(
      fieldsSet(by: .edited(standup.id, StandupEdit(from: stored, to: standup))), to: false, db)
    try StandupRows.write(from: stored, to: standup, db)
    return nil
  }
}
