public import Foundation
public import IdentifiedCollections
public import Tagged

/// A recurring stand-up meeting: who attends, how long it lasts, how it looks, and what was said
/// at past meetings.
public struct Standup: Equatable, Hashable, Identifiable, Sendable {
  /// The standup's identity.
  public let id: Tagged<Self, UUID>

  /// The people who speak, in speaking order.
  public var attendees: IdentifiedArrayOf<Attendee>

  /// The length of the whole meeting.
  public var duration: Duration

  /// Past meetings, newest first.
  public var meetings: IdentifiedArrayOf<Meeting>

  /// The colours the standup is shown in.
  public var theme: Theme

  /// The standup's name.
  public var title: String

  /// Creates a standup.
  public init(
    id: Tagged<Self, UUID>,
    attendees: IdentifiedArrayOf<Attendee> = [],
    duration: Duration = .seconds(5 * 60),
    meetings: IdentifiedArrayOf<Meeting> = [],
    theme: Theme = .bubblegum,
    title: String = ""
  ) {
    self.id = id
    self.attendees = attendees
    self.duration = duration
    self.meetings = meetings
    self.theme = theme
    self.title = title
  }

  /// How long each speaker gets: the duration shared among the attendees.
  ///
  /// A standup with no attendees is one long turn, so the result is always defined and a
  /// meeting always ends; it is zero only when the duration is.
  public var durationPerAttendee: Duration {
    duration / max(attendees.count, 1)
  }
}

/// A person who speaks at a standup.
public struct Attendee: Equatable, Hashable, Identifiable, Sendable {
  /// The attendee's identity.
  public let id: Tagged<Self, UUID>

  /// The attendee's name.
  public var name: String

  /// Creates an attendee.
  public init(id: Tagged<Self, UUID>, name: String = "") {
    self.id = id
    self.name = name
  }
}

/// A past meeting of a standup and its transcript.
public struct Meeting: Equatable, Hashable, Identifiable, Sendable {
  /// The meeting's identity.
  public let id: Tagged<Self, UUID>

  /// When the meeting ended.
  public var date: Date

  /// What was said.
  public var transcript: String

  /// Creates a meeting.
  public init(id: Tagged<Self, UUID>, date: Date, transcript: String) {
    self.id = id
    self.date = date
    self.transcript = transcript
  }
}
