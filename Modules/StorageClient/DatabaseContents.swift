public import IdentifiedCollections
public import Models

/// What a database holds, read without writing anything (``StandupsDatabase/contents()``): what
/// `standups export` writes, and what it has to say about it.
public struct DatabaseContents: Equatable, Sendable {
  /// The standups, with the meetings whose recording app stopped kept as past meetings.
  public var standups: IdentifiedArrayOf<Standup>
  /// Standups whose rows cannot be read: left out.
  public var unreadable: [UnreadableStandup]
  /// The titles of standups with a meeting another instance is recording now: not in
  /// ``standups`` until it is kept.
  public var meetingsBeingRecorded: [String]
  /// The titles of standups with a meeting whose recording app stopped, in ``standups`` as the
  /// past meeting the next launch keeps.
  public var interruptedMeetings: [String]

  /// Creates a reading of a database.
  public init(
    standups: IdentifiedArrayOf<Standup> = [],
    unreadable: [UnreadableStandup] = [],
    meetingsBeingRecorded: [String] = [],
    interruptedMeetings: [String] = []
  ) {
    self.standups = standups
    self.unreadable = unreadable
    self.meetingsBeingRecorded = meetingsBeingRecorded
    self.interruptedMeetings = interruptedMeetings
  }
}
