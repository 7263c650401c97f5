public import Foundation
import IdentifiedCollections
public import Models

// What crosses between the engine and the database when a round recovers (a machine starting
// from a compacted state, a standup kept apart at a join, a standup another member deleted while
// this machine changed it, standups sent again to a restored server), and what the report tells
// the user of them and of the changes a pull did not apply. An ordinary round's changes and report
// are in TeamChanges.swift.

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

extension TeamPullReport {
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

  /// What the user is told of the changes not applied: the first few by name and the rest
  /// counted, so that a member who writes thousands of bad rows cannot fill the screen or the
  /// terminal. Empty when every change was applied.
  public var notAppliedSentences: [String] {
    let named = skipped.prefix(Wording.mostNamed).map(\.sentence)
    let more = skipped.count - named.count
    return named + (more > 0 ? ["\(more) more of the team's changes were not applied here."] : [])
  }

  /// What the user is told of the standups kept apart, or `nil`.
  public var keptApartSentence: String? {
    guard !keptApart.isEmpty else { return nil }
    return "The team shares standups this machine held as its own, with other values: the "
      + "team's are shown as shared, and yours are kept here as "
      + "\(Wording.named(keptApart.map(\.copy.title)))."
  }

  /// What the user is told when standups were sent again, or `nil`.
  public var resentSentence: String? {
    guard resent > 0 else { return nil }
    let standups =
      resent == 1
      ? "1 shared standup whose last change it"
      : "\(resent) shared standups "
        + "whose last changes it"
    return "The team's server had forgotten changes this machine had (was it restored from an "
      + "older backup?): this machine sent again \(standups) had lost, and deleted nothing here."
  }
}

extension TeamPullReport.Skipped {
  /// What was not applied, as a sentence starts with it: the change and who made it, or the
  /// standup of the compacted state.
  public var named: String {
    guard let madeBy else {
      return "A standup of the team's compacted state, made through change \(sequence),"
    }
    return "The team's change \(sequence), by \(madeBy),"
  }

  /// What the user is told: which change, whose, and why.
  public var sentence: String {
    let why = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
    return "\(named) was not applied here: \(why)."
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
