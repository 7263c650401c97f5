public import Models
public import Tagged

// What the team asks of the user here: standups another member deleted while this machine had
// changed them, and values of this machine's that another member's change replaced. Each call is
// one transaction.

extension StandupsDatabase {
  /// The standups another member deleted while this machine had changed them, kept here until
  /// the user answers (``answerTeamDeletion(of:keep:)``).
  public func teamDeletionQuestions() throws(StorageError) -> [TeamDeletionQuestion] {
    try readingTeam(or: []) { db in try TeamLedger.deletionQuestions(db) }
  }

  /// Keeps a standup another member deleted, for the whole team as it is here, or lets it go;
  /// returns whether it was still asked about. A question another instance of the app answered
  /// first takes no second answer: this one changes nothing, and returns `false`.
  @discardableResult
  public func answerTeamDeletion(of id: Standup.ID, keep: Bool) throws(StorageError) -> Bool {
    let queue = try writableQueue()
    return try commit(queue) { db in try TeamLedger.answerDeletion(of: id, keep: keep, db) }
  }

  /// The values of this machine's that another machine's change replaced, still to be put
  /// away: what `standups team status` lists.
  public func valuesReplacedByTheTeam() throws(StorageError) -> [ReplacedValue] {
    try readingTeam(or: []) { db in
      try ReplacedValueRecord.fetchAll(db, replacedBy: .team)
    }
  }
}
