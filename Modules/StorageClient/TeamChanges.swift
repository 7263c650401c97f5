public import Foundation
public import Models
public import Tagged

/// A change of this machine's to a shared standup, waiting for the team's server.
public struct WaitingTeamChange: Equatable, Sendable {
  /// Its *machine number*: its number on this machine. Changes are pushed in this order, and
  /// the server keeps it to refuse the same change twice.
  public var machineSequence: Int64
  /// The change, as the JSON of ``/Models/StandupsChange``.
  public var change: String
  /// The last change of the server's order this machine had applied when it was made.
  public var basedOn: Int64
}

/// A change in the server's order, as a pull reads it.
public struct PulledTeamChange: Equatable, Sendable {
  /// Its number in the team's order.
  public var sequence: Int64
  /// The machine that made it.
  public var machine: UUID
  /// Its number on that machine.
  public var machineSequence: Int64
  /// The role that made it.
  public var madeBy: String
  /// The last change of the server's order its machine had applied when it was made.
  public var basedOn: Int64
  /// The change, as the JSON of ``/Models/StandupsChange``.
  public var change: String
  /// Its size in bytes when it is larger than a change may be: its JSON was not read, and it
  /// is skipped.
  public var tooLarge: Int?

  /// A change read from the server.
  public init(
    sequence: Int64, machine: UUID, machineSequence: Int64 = 0, madeBy: String = "",
    basedOn: Int64 = 0, change: String, tooLarge: Int? = nil
  ) {
    self.sequence = sequence
    self.machine = machine
    self.machineSequence = machineSequence
    self.madeBy = madeBy
    self.basedOn = basedOn
    self.change = change
    self.tooLarge = tooLarge
  }
}

/// What applying pulled changes did.
public struct TeamPullReport: Equatable, Sendable {
  /// The standups other machines' changes touched.
  public var standupIDs: Set<Standup.ID> = []
  /// Changes that were not applied, and why: larger than a change may be, of a kind this release
  /// cannot read, breaking a rule, or about a standup another team shares here; and standups of
  /// the compacted state that were not, for the same reasons.
  public var skipped: [Skipped] = []
  /// Standups another member deleted while this machine had changed them: kept here, and the
  /// user is asked (``TeamDeletionQuestion``).
  public var deletedWhileChangedHere: [Standup.ID] = []

  /// How many shared standups this machine sent again, whole: because the server had lost their
  /// last change (it was restored from an older backup), or because this machine kept them while
  /// starting from the team's compacted state; 0 when it sent none.
  public var resent = 0

  /// The number the team's compacted state was made through, when this machine started from it
  /// (``CompactedTeamState``); `nil` when it did not.
  public var startedFromCompactedState: Int64?

  /// Standups of this machine's own (not shared) that the team shares too, with other values
  /// (a machine back in a team it left, with edits made meanwhile): the team's took their
  /// place, and each was kept here as a personal copy.
  public var keptApart: [KeptCopy] = []

  /// A report of nothing applied.
  public init() {}

  /// Whether the pull has nothing to tell: no standup another machine changed, nothing skipped,
  /// asked about, sent again or kept apart, and no start from the compacted state.
  public var isEmpty: Bool {
    standupIDs.isEmpty && skipped.isEmpty && deletedWhileChangedHere.isEmpty && resent == 0
      && startedFromCompactedState == nil && keptApart.isEmpty
  }

  /// Adds what `other`, a later part of the same round, did.
  public mutating func merge(_ other: TeamPullReport) {
    standupIDs.formUnion(other.standupIDs)
    skipped += other.skipped
    deletedWhileChangedHere += other.deletedWhileChangedHere
    resent += other.resent
    startedFromCompactedState = other.startedFromCompactedState ?? startedFromCompactedState
    keptApart += other.keptApart
  }

  /// A change that was not applied.
  public struct Skipped: Equatable, Sendable {
    /// Its number in the team's order; for a standup of the compacted state, the number the state
    /// was made through.
    public var sequence: Int64
    /// The role that made it; `nil` for a standup of the compacted state, which folds the changes
    /// of many.
    public var madeBy: String?
    /// Why, in a sentence.
    public var reason: String

    /// A change not applied: `sequence` in the team's order, made by `madeBy`, for `reason`.
    public init(sequence: Int64, madeBy: String?, reason: String) {
      self.sequence = sequence
      self.madeBy = madeBy
      self.reason = reason
    }
  }
}
