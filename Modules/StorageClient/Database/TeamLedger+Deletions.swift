import Foundation
import GRDB
import Models

// A standup the team deletes, and one a change brings back: the deletion that meets a change
// here asks the user, the answer, and the changes that carry a standup whole (added, or a
// meeting), which bring it back where the order deleted it. An edit's pull never comes here.

extension TeamLedger {
  /// Notes that the team's order holds `id` again after its deletion: letting it go, if a
  /// question about the deletion asks, deletes it for the team too.
  static func noteBroughtBack(_ id: Standup.ID, _ db: Database) throws {
    try executeCached(
      sql: "UPDATE teamDeletionQuestion SET broughtBack = 1 WHERE standupId = ?",
      arguments: [id.rawValue.uuidString], db)
  }

  /// Asks this machine's user about `id`, which `member` deleted while it was changed here.
  static func askAboutDeletion(of id: Standup.ID, by member: String, _ db: Database) throws {
    try executeCached(
      sql: "INSERT OR REPLACE INTO teamDeletionQuestion (standupId, deletedBy) VALUES (?, ?)",
      arguments: [id.rawValue.uuidString, member], db)
  }

  /// Asks the user about another member's `pulled` deletion of `id` when it meets a change here
  /// (``deletionMeetsChangesHere(of:at:basedOn:_:_:)``): the standup stays, a question row
  /// names who deleted it, and the report says so. Returns whether it asked, in which case the
  /// deletion is not applied here.
  static func asksWhetherToKeep(
    _ id: Standup.ID, deletedBy pulled: PulledTeamChange, _ outbox: Outbox,
    into report: inout TeamPullReport, _ db: Database
  ) throws -> Bool {
    guard
      try deletionMeetsChangesHere(
        of: id, at: pulled.sequence, basedOn: pulled.basedOn, outbox, db)
    else { return false }
    try askAboutDeletion(of: id, by: pulled.madeBy, db)
    report.deletedWhileChangedHere.append(id)
    return true
  }

  /// Whether another machine's deletion, `sequence` in the server's order, deletes a standup
  /// this machine changed without having seen the deletion: a change of its in the outbox
  /// (pushed or not) made before it had pulled that far. The standup then stays here, and the
  /// user is asked (`teamDeletionQuestion`), as when a second instance deletes a standup being
  /// edited.
  ///
  /// A change of this machine's the server ordered before the deletion counts too when the
  /// deleting machine had not pulled it (`basedOn`): `teamOwnChange` keeps the place of this
  /// machine's last change to each standup.
  private static func deletionMeetsChangesHere(
    of id: Standup.ID, at sequence: Int64, basedOn: Int64, _ outbox: Outbox, _ db: Database
  ) throws -> Bool {
    let lastOwn = try Int64.fetchOne(
      db, sql: "SELECT sequence FROM teamOwnChange WHERE standupId = ?",
      arguments: [id.rawValue.uuidString])
    if let lastOwn, lastOwn > basedOn { return true }
    return outbox.entries.contains { entry in
      guard entry.basedOn < sequence, entry.change.standupIDs.contains(id) else { return false }
      if case .deleted = entry.change { return false }
      return true
    }
  }

  /// Notes that `member` deleted `id` here, so that a screen the deletion closes names them.
  static func noteWhoDeleted(_ id: Standup.ID, by member: String, _ db: Database) throws {
    try executeCached(
      sql: "INSERT OR REPLACE INTO teamDeletedBy (standupId, member) VALUES (?, ?)",
      arguments: [id.rawValue.uuidString, member], db)
  }

  /// The standups the team deleted while this machine had changed them, and who deleted each.
  static func deletionQuestions(_ db: Database) throws -> [TeamDeletionQuestion] {
    var questions: [TeamDeletionQuestion] = []
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT standupId, deletedBy FROM teamDeletionQuestion WHERE keptAs IS NULL
        ORDER BY standupId
        """)
    {
      // NB: A standup deleted here since is no question any more; the answer's commit (or
      // leaving the team) removes its row.
      guard
        let standup = try? StandupRows.fetchOne(db, id: Standup.ID(uuidString: row["standupId"]))
      else { continue }
      questions.append(TeamDeletionQuestion(standup: standup, deletedBy: row["deletedBy"]))
    }
    return questions
  }

  /// The user's answer: keep the standup (it is the team's again, as it is here) or let it go.
  ///
  /// Keeping it sends it whole, and its values again: a machine where a change ordered after
  /// the deletion brought it back (a meeting, which carries the standup as its recorder had it)
  /// takes this machine's values, which saw every change of the order. The question stays,
  /// answered (`keptAs`), until the keep comes back in a pull: a change the server orders
  /// before it may still bring the standup back, and does so here as everywhere
  /// (``bringBackAsCarried(_:_:)``). Guarded by
  /// `TeamLedgerTests.aStandupKeptForTheTeamComesBackAsAChangeOrderedBeforeTheKeepCarriesIt`.
  ///
  /// Letting it go deletes it here, and, when the team's order holds it again after the
  /// deletion (a change ordered after it brought it back), for the team too: a machine's shared
  /// standups are the order applied, whatever its user answered.
  ///
  /// Returns whether the standup was still asked about: an answer to a question another
  /// instance of the app has answered (or about a standup deleted here since) changes nothing.
  /// Guarded by `TeamLedgerDeletionTests.aQuestionAnsweredInAnotherInstanceTakesNoSecondAnswer`.
  static func answerDeletion(of id: Standup.ID, keep: Bool, _ db: Database) throws -> Bool {
    let key = id.rawValue.uuidString
    guard
      let question = try Row.fetchOne(
        db, sql: "SELECT broughtBack, keptAs FROM teamDeletionQuestion WHERE standupId = ?",
        arguments: [key]),
      question["keptAs"] as Int64? == nil
    else { return false }
    let broughtBack: Bool = question["broughtBack"]
    guard let standup = try StandupRows.fetchOne(db, id: id) else {
      try db.execute(
        sql: "DELETE FROM teamDeletionQuestion WHERE standupId = ?", arguments: [key])
      return false
    }
    if keep {
      try TeamLedger.addToOutbox(.added([standup]), db)
      try db.execute(
        sql: "UPDATE teamDeletionQuestion SET keptAs = ? WHERE standupId = ?",
        arguments: [db.lastInsertedRowID, key])
      try TeamLedger.addToOutbox(.edited(id, .init(restating: standup)), db)
    } else {
      try db.execute(
        sql: "DELETE FROM teamDeletionQuestion WHERE standupId = ?", arguments: [key])
      try StandupRows.delete(id, db)
      // NB: Otherwise nothing for the team: the server has the deletion already.
      if broughtBack {
        try TeamLedger.addToOutbox(.deleted(id), db)
      }
    }
    return true
  }

  /// Writes `change`, which carries standups whole (`StandupsChange.bringsBack`), made
  /// by `pulled`'s machine: another member's first keeps apart this machine's own copies of
  /// them that differ from the team's (``keepApartOwnCopies(of:makeID:_:)``), and a standup
  /// held here for a deletion's question makes way for the copy it carries
  /// (``bringBackAsCarried(_:_:tell:)``), the values of this machine's it replaces told. Returns
  /// why it was refused, as a write does.
  static func bringBack(
    _ change: StandupsChange, from pulled: PulledTeamChange, isOwn: Bool, _ outbox: Outbox,
    at now: Date, makeID: () -> UUID, into report: inout TeamPullReport, _ db: Database
  ) throws -> String? {
    if !isOwn {
      report.keptApart += try keepApartOwnCopies(of: change, makeID: makeID, db)
    }
    return try writeUnlessRefused(change, db) { db in
      try bringBackAsCarried(change, db) { replacing in
        guard !isOwn else { return }
        try tellReplaced(
          by: replacing, of: pulled.madeBy, fieldsSet(by: replacing), outbox, at: now,
          makeID: makeID, db)
      }
    }
  }

  /// Makes way for a change that brings back a standup the team's order deleted, which this
  /// machine holds only until its user answers the deletion's question: at that point of the
  /// order the standup is gone, so the change brings it back as it carries it, here as on every
  /// other machine (the rule that every machine ends on the server's order). This machine's own
  /// waiting changes to it are applied again after the pull; its values the replace takes away
  /// are handed to `tell` first, as the edit the replace amounts to. Returns why it could not, as
  /// a write does. Guarded by
  /// `TeamLedgerTests.aStandupHeldForADeletionsQuestionComesBackAsTheChangeThatBringsItBackCarriesIt`
  /// and `TeamLedgerTests.aValueOfThisMachinesTheBringBackReplacesIsTold`.
  private static func bringBackAsCarried(
    _ change: StandupsChange, _ db: Database, tell: (StandupsChange) throws -> Void
  ) throws -> String? {
    for standup in change.carried
    where try Bool.fetchOne(
      db.cachedStatement(
        sql: "SELECT NOT broughtBack FROM teamDeletionQuestion WHERE standupId = ?"),
      arguments: [standup.id.rawValue.uuidString]) == true
    {
      if let held = try StandupRows.fetchOne(db, id: standup.id) {
        try tell(.edited(standup.id, .bringingBack(standup, over: held)))
      }
      if let problem = try replace(with: standup, db) { return problem }
    }
    return nil
  }
}

extension StandupEdit {
  /// What a change that brings back `carried` does to `held`, the copy this machine kept for a
  /// deletion's question: it makes `held` into `carried`, having seen only its own values, never
  /// `held`'s. So each value of `held`'s it replaces counts as replaced unseen, and is told when
  /// it was this machine's; an attendee removed here that it carries counts as named by it, as
  /// a rename that brings an attendee back does.
  fileprivate static func bringingBack(_ carried: Standup, over held: Standup) -> StandupEdit {
    var edit = StandupEdit(from: held, to: carried)
    if let added = edit.attendees?.added { edit.attendees?.renamed += added }
    var names: [Attendee.ID: String] = [:]
    for attendee in edit.attendees?.renamed ?? [] { names[attendee.id] = attendee.name }
    edit.seen = Seen(
      title: edit.title, duration: edit.duration, theme: edit.theme, attendeeNames: names,
      attendeeOrder: edit.seen.attendeeOrder.map { _ in Array(carried.attendees.ids) })
    return edit
  }
}

extension StandupsChange {
  /// The standups the change carries whole: those it adds, or the one it records a meeting of.
  /// Applying it stores each of them on every machine, one deleted in the team's order too.
  var carried: [Standup] {
    switch self {
    case .added(let standups): standups
    case .meetingRecorded(_, let standup): [standup]
    case .edited, .deleted: []
    }
  }

  /// Whether applying the change makes a standup deleted in the team's order stored again on
  /// every machine (``carried``).
  var bringsBack: Bool { !carried.isEmpty }
}
