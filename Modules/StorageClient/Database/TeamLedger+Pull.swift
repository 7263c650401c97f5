import Foundation
import GRDB
import IdentifiedCollections
import Models

// Applying what a pull brought: the changes the server ordered after the last one applied
// here, in its order, in one transaction, then this machine's own waiting changes again. A
// change of another machine's that meets a change here is told (TeamLedger+Told.swift); a
// deletion, and a change that brings a standup back, have their own file
// (TeamLedger+Deletions.swift).

extension TeamLedger {
  /// Applies the changes the server ordered after the last one applied, then this machine's
  /// waiting changes to the same standups again, in one transaction. A change that cannot be
  /// read or would break a rule is skipped, named in the report, and the rest go on.
  ///
  /// This machine's own changes are those of its ID made by `role`, the role it connects as: a
  /// member who writes rows under this machine's ID writes them as theirs. `outbox` is the one
  /// the last pull read, or an empty one: read again, it is the outbox as it is now.
  static func applyPulled(
    _ pulled: [PulledTeamChange],
    in team: TeamMembership.ID,
    through sequence: Int64,
    as role: String,
    at now: Date,
    makeID: () -> UUID,
    outbox: inout Outbox,
    _ db: Database
  ) throws -> TeamPullReport {
    var report = TeamPullReport()
    guard let membership = try TeamMembership.fetch(team, db) else { return report }
    let machine = MemberMachine(madeBy: role, machine: membership.machine)
    try outbox.readAgain(of: team, db)
    var touched = Set<Standup.ID>()
    var seen = try machinesSeen(in: team, db)
    var seenNow: [MemberMachine: Int64] = [:]
    for change in pulled {
      // NB: A pull made again from the start (the server forgot changes: `startAgain`) meets
      // changes applied here already; each machine's come in the order it numbered them.
      let from = MemberMachine(madeBy: change.madeBy, machine: change.machine)
      guard change.machineSequence > seen[from, default: 0] else { continue }
      seen[from] = change.machineSequence
      seenNow[from] = change.machineSequence
      let isOwn = from == machine
      // NB: Back in the team's order, this machine's change waits no longer, whether or not the
      // pull can read it (one too large comes back unread).
      if isOwn { try ownChangeCameBack(change, outbox: &outbox, db) }
      guard let (decoded, owners) = try readUnlessSkipped(change, in: team, into: &report, db)
      else { continue }
      if isOwn { try noteOwnChange(change, decoded, db) }
      // NB: Only a change that brings a standup back (`keepApartOwnCopies`) touches one this
      // team does not share here: an edit or deletion of it leaves this machine's own copy be.
      guard decoded.bringsBack || decoded.standupIDs.allSatisfy({ owners[$0] == team })
      else { continue }
      let fields = fieldsSet(by: decoded)
      if !isOwn {
        try tellReplaced(
          by: decoded, of: change.madeBy, fields, outbox, at: now, makeID: makeID, db)
        if case .deleted(let id) = decoded,
          try asksWhetherToKeep(id, deletedBy: change, outbox, into: &report, db)
        {
          continue
        }
      }
      let refusal =
        decoded.bringsBack
        ? try bringBack(
          decoded, from: change, isOwn: isOwn, outbox, at: now, makeID: makeID, into: &report, db)
        : try writeUnlessRefused(decoded, db)
      if let problem = refusal {
        report.skipped.append(
          TeamPullReport.Skipped(sequence: change.sequence, madeBy: change.madeBy, reason: problem))
        continue
      }
      touched.formUnion(decoded.standupIDs)
      try noteApplied(change, decoded, team, db)
      try setOwnedHere(fields, to: isOwn, db)
      if !isOwn {
        report.standupIDs.formUnion(decoded.standupIDs)
        if case .deleted(let id) = decoded {
          try noteWhoDeleted(id, by: change.madeBy, db)
        }
      }
    }
    try applyAgain(outbox, to: touched, db)
    try noteLastChangesSeen(seenNow, in: team, db)
    try db.execute(
      sql: """
        UPDATE teamMembership SET lastSequence = max(lastSequence, ?), lastSyncedAt = ?
        WHERE id = ?
        """,
      arguments: [sequence, now.timeIntervalSinceReferenceDate, team.rawValue])
    return report
  }

  /// The change `pulled` holds, with the team of each of its standups shared here, or `nil` when
  /// it is skipped (larger than a change may be, not a change this release can read, or about a
  /// standup this machine shares with another team), named in `report`.
  ///
  /// A standup is in one team (TeamSync's rule 1, ``TeamLedger``): `team`'s order may hold one
  /// under the ID of a standup another team shares here only when a member wrote it so, and
  /// applying it would put that team's standup in `team`'s hands. Guarded by
  /// `TeamLedgerTeamsTests.aChangeOfOneTeamAboutAnotherTeamsStandupIsSkippedAndSaysSo`.
  private static func readUnlessSkipped(
    _ pulled: PulledTeamChange, in team: TeamMembership.ID, into report: inout TeamPullReport,
    _ db: Database
  ) throws -> (StandupsChange, owners: [Standup.ID: TeamMembership.ID])? {
    let reason: String
    if let size = pulled.tooLarge {
      reason = "it holds \(megabytes(size)), more than a change may"
    } else {
      switch read(pulled.change) {
      case .success(let change):
        let owners = try teams(of: change.standupIDs, db)
        guard owners.values.contains(where: { $0 != team }) else { return (change, owners) }
        reason = anotherTeamsStandup
      case .failure(let problem): reason = problem.reason
      }
    }
    report.skipped.append(
      TeamPullReport.Skipped(sequence: pulled.sequence, madeBy: pulled.madeBy, reason: reason))
    return nil
  }

  /// A change of this machine's is back in the team's order: it leaves the outbox. Guarded by
  /// `TeamLedgerTests.anOwnChangeBackTooLargeToReadLeavesTheOutbox`.
  private static func ownChangeCameBack(
    _ pulled: PulledTeamChange, outbox: inout Outbox, _ db: Database
  ) throws {
    try executeCached(
      sql: "DELETE FROM teamOutbox WHERE pushed = 1 AND sequence = ?",
      arguments: [pulled.machineSequence], db)
    outbox.remove(machineSequence: pulled.machineSequence)
    // NB: A standup kept for the team is the team's again once the keep is in the order.
    try executeCached(
      sql: "DELETE FROM teamDeletionQuestion WHERE keptAs = ?",
      arguments: [pulled.machineSequence], db)
  }

  /// The standups a change of this machine's changed note its number (`teamOwnChange`), which a
  /// later deletion by another member is measured against.
  private static func noteOwnChange(
    _ pulled: PulledTeamChange, _ change: StandupsChange, _ db: Database
  ) throws {
    if case .deleted = change { return }
    for id in change.standupIDs {
      try executeCached(
        sql: "INSERT OR REPLACE INTO teamOwnChange (standupId, sequence) VALUES (?, ?)",
        arguments: [id.rawValue.uuidString, pulled.sequence], db)
    }
  }

  /// Notes what applying `change` made of its standups: they are shared, one a deletion asked
  /// about is brought back by it, and it is their last change (which a restored server is asked
  /// about).
  private static func noteApplied(
    _ pulled: PulledTeamChange, _ change: StandupsChange, _ team: TeamMembership.ID,
    _ db: Database
  ) throws {
    for id in change.standupIDs {
      try noteShared(id, in: team, db)
      if change.bringsBack { try noteBroughtBack(id, db) }
      try executeCached(
        sql: """
          INSERT OR REPLACE INTO teamStandupLastChange (standupId, madeBy, machine, machineSequence)
          VALUES (?, ?, ?, ?)
          """,
        arguments: [
          id.rawValue.uuidString, pulled.madeBy, pulled.machine.uuidString,
          pulled.machineSequence,
        ], db)
    }
  }

  /// Applies this machine's changes in `outbox` that touch `standups` again, after changes the
  /// server ordered: they will be ordered after those when pushed.
  static func applyAgain(_ outbox: Outbox, to standups: Set<Standup.ID>, _ db: Database) throws {
    for entry in outbox.entries where entry.change.standupIDs.contains(where: standups.contains) {
      _ = try writeUnlessRefused(entry.change, db)
    }
  }

  /// Notes the last change applied here of each machine in `seen`, keeping a later one noted
  /// before.
  static func noteLastChangesSeen(
    _ seen: [MemberMachine: Int64], in team: TeamMembership.ID, _ db: Database
  ) throws {
    for (machine, machineSequence) in seen {
      try executeCached(
        sql: """
          INSERT INTO teamMachineSeen (membership, madeBy, machine, machineSequence)
          VALUES (?, ?, ?, ?)
          ON CONFLICT (membership, madeBy, machine)
          DO UPDATE SET machineSequence = max(machineSequence, excluded.machineSequence)
          """,
        arguments: [team.rawValue, machine.madeBy, machine.machine.uuidString, machineSequence],
        db)
    }
  }

  /// The last change applied here of each machine's in `team`.
  static func machinesSeen(in team: TeamMembership.ID, _ db: Database) throws
    -> [MemberMachine: Int64]
  {
    var seen: [MemberMachine: Int64] = [:]
    for row in try Row.fetchAll(
      db, sql: "SELECT madeBy, machine, machineSequence FROM teamMachineSeen WHERE membership = ?",
      arguments: [team.rawValue])
    {
      guard let machine = MemberMachine(row) else { continue }
      seen[machine] = row["machineSequence"]
    }
    return seen
  }
}

extension MemberMachine {
  /// The machine a local row names in its `madeBy` and `machine` columns, or `nil` when the
  /// machine is not a UUID (the row is skipped, as a row that cannot be read is).
  init?(_ row: Row) {
    guard let machine = UUID(uuidString: row["machine"]) else { return nil }
    self.init(madeBy: row["madeBy"], machine: machine)
  }
}
