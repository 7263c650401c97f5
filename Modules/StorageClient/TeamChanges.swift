public import Foundation
import IdentifiedCollections
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
  /// Its place in the team's order.
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

/// The team's standups as its changes up to a number left them, and the last change of each
/// machine folded into them: what a machine starts from when the history it lacks has been
/// pruned, or when it joins a team whose history was compacted, instead of replaying every
/// change (`standups team prune`).
public struct CompactedTeamState: Equatable, Sendable {
  /// The number of the last change folded in.
  public var through: Int64
  /// The team's standups, in the team's order.
  public var standups: [Standup]
  /// The last change folded in of each machine's, numbered as that machine numbers them.
  public var machinesSeen: [MemberMachine: Int64]

  /// The state after the changes up to `through`.
  public init(through: Int64, standups: [Standup], machinesSeen: [MemberMachine: Int64]) {
    self.through = through
    self.standups = standups
    self.machinesSeen = machinesSeen
  }
}

/// What applying pulled changes did.
public struct TeamPullReport: Equatable, Sendable {
  /// The standups other machines' changes touched.
  public var standupIDs: Set<Standup.ID> = []
  /// Changes that were not applied, and why: a release cannot read them, or they break a rule.
  public var skipped: [Skipped] = []
  /// Standups another member deleted while this machine had changed them: kept here, and the
  /// user is asked (``TeamDeletionQuestion``).
  public var deletedWhileChangedHere: [Standup.ID] = []

  /// How many shared standups this machine sent again, whole, because the server had lost their
  /// last change (it was restored from an older backup); 0 when it had lost none.
  public var sentAgain = 0

  /// The number the team's compacted state was made through, when this machine started from it
  /// (``CompactedTeamState``); `nil` when it did not.
  public var startedFromCompactedState: Int64?

  /// Standups of this machine's own (not shared) that the team shares too, with other values
  /// (a machine back in a team it left, with edits made meanwhile): the team's took their
  /// place, and each was kept here as a personal copy.
  public var keptApart: [KeptCopy] = []

  /// A standup of this machine's own that a pull kept apart as a personal copy.
  public struct KeptCopy: Equatable, Sendable {
    /// The standup as this machine held it, under the team's ID.
    public var held: Standup
    /// The personal copy, under IDs of its own and the title "… (kept here)".
    public var copy: Standup

    /// `held` kept apart: its values under IDs `makeID` gives, and the title "… (kept here)".
    public init(keepingApart held: Standup, makeID: () -> UUID) {
      self.held = held
      self.copy = Standup(
        id: Standup.ID(makeID()),
        attendees: IdentifiedArray(
          uniqueElements: held.attendees.map { Attendee(id: Attendee.ID(makeID()), name: $0.name) }
        ),
        duration: held.duration,
        meetings: IdentifiedArray(
          uniqueElements: held.meetings.map {
            Meeting(id: Meeting.ID(makeID()), date: $0.date, transcript: $0.transcript)
          }),
        theme: held.theme,
        title: "\(held.displayTitle) (kept here)")
    }
  }

  /// A report of nothing applied.
  public init() {}

  /// Whether nothing another machine did reached this one, applied or not, and nothing was
  /// sent again.
  public var isEmpty: Bool {
    standupIDs.isEmpty && skipped.isEmpty && deletedWhileChangedHere.isEmpty && sentAgain == 0
      && startedFromCompactedState == nil && keptApart.isEmpty
  }

  /// Adds what `other`, a later part of the same round, did.
  public mutating func merge(_ other: TeamPullReport) {
    standupIDs.formUnion(other.standupIDs)
    skipped += other.skipped
    deletedWhileChangedHere += other.deletedWhileChangedHere
    sentAgain += other.sentAgain
    startedFromCompactedState = other.startedFromCompactedState ?? startedFromCompactedState
    keptApart += other.keptApart
  }

  /// What the user is told of the standups kept apart, or `nil`.
  public var keptApartSentence: String? {
    guard !keptApart.isEmpty else { return nil }
    let named = keptApart.prefix(3).map { "“\($0.copy.title)”" }.joined(separator: ", ")
    let more = keptApart.count > 3 ? ", and \(keptApart.count - 3) more" : ""
    return "The team shares standups this machine held as its own, with other values: the "
      + "team's are shown as shared, and yours are kept here as \(named)\(more)."
  }

  /// What the user is told when standups were sent again, or `nil`.
  public var sentAgainSentence: String? {
    guard sentAgain > 0 else { return nil }
    let standups =
      sentAgain == 1
      ? "1 shared standup whose last change it"
      : "\(sentAgain) shared standups "
        + "whose last changes it"
    return "The team's server had forgotten changes this machine had (was it restored from an "
      + "older backup?): this machine sent again \(standups) had lost, and deleted nothing here."
  }

  /// A change that was not applied.
  public struct Skipped: Equatable, Sendable {
    /// Its place in the team's order.
    public var sequence: Int64
    /// The role that made it.
    public var madeBy: String
    /// Why, in a sentence.
    public var reason: String

    /// A change not applied: `sequence` in the team's order, made by `madeBy`, for `reason`.
    public init(sequence: Int64, madeBy: String, reason: String) {
      self.sequence = sequence
      self.madeBy = madeBy
      self.reason = reason
    }

    /// What the user is told: which change, whose, and why.
    public var sentence: String {
      let why = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
      return "The team's change \(sequence), by \(madeBy), was not applied here: \(why)."
    }
  }
}

/// A standup another member deleted while this machine had changed it without seeing the
/// deletion: it stays here until the user keeps it for the team (as it is here) or lets it go.
public struct TeamDeletionQuestion: Equatable, Sendable {
  /// The standup, as it is here.
  public var standup: Standup
  /// The role that deleted it.
  public var deletedBy: String
}
