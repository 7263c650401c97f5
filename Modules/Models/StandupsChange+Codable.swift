import Foundation
import IdentifiedCollections
import Tagged

// The JSON of a change, as a team's server keeps it and every member's machine reads it. One key
// names the kind of change:
//
//   {"added": [<standup>, …]}
//   {"edited": {"standup": "<id>", "edit": <edit>}}
//   {"deleted": "<id>"}
//   {"meetingRecorded": {"meeting": <meeting>, "standup": <standup>}}
//
// An edit names only what it changes, in the standup's own terms (`durationSeconds`), and what
// the fields it changes held where it was made (`seen`), so that a machine applying it later can
// tell whose value it replaces. Decoding applies the rules a standup's own decoding does: a change
// written by hand to the server cannot carry a duration no standup may have.

extension StandupsChange: Codable {
  private enum CodingKeys: String, CodingKey {
    case added, edited, deleted, meetingRecorded
  }

  private struct Edited: Codable {
    var standup: Standup.ID
    var edit: StandupEdit
  }

  private struct MeetingRecorded: Codable {
    var meeting: Meeting
    var standup: Standup
  }

  /// Decodes a change: an object with one key naming its kind.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let added = try container.decodeIfPresent([Standup].self, forKey: .added) {
      self = .added(added)
    } else if let edited = try container.decodeIfPresent(Edited.self, forKey: .edited) {
      self = .edited(edited.standup, edited.edit)
    } else if let deleted = try container.decodeIfPresent(Standup.ID.self, forKey: .deleted) {
      self = .deleted(deleted)
    } else if let recorded = try container.decodeIfPresent(
      MeetingRecorded.self, forKey: .meetingRecorded)
    {
      self = .meetingRecorded(recorded.meeting, standup: recorded.standup)
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A change names one of added, edited, deleted, meetingRecorded."))
    }
  }

  /// Encodes a change as an object with one key naming its kind.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .added(let standups): try container.encode(standups, forKey: .added)
    case .edited(let id, let edit):
      try container.encode(Edited(standup: id, edit: edit), forKey: .edited)
    case .deleted(let id): try container.encode(id, forKey: .deleted)
    case .meetingRecorded(let meeting, let standup):
      try container.encode(
        MeetingRecorded(meeting: meeting, standup: standup), forKey: .meetingRecorded)
    }
  }
}

extension StandupEdit: Codable {
  private enum CodingKeys: String, CodingKey {
    case title, durationSeconds, theme, attendees, meetingsAdded, meetingsRemoved, seen
  }

  private enum SeenKeys: String, CodingKey {
    case title, durationSeconds, theme, attendeeNames, attendeeOrder
  }

  /// Decodes an edit, refusing a duration no standup may have.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let seenContainer = try container.nestedContainer(keyedBy: SeenKeys.self, forKey: .seen)
    self.init(
      title: try container.decodeIfPresent(String.self, forKey: .title),
      duration: try Self.decodeDuration(container, .durationSeconds),
      theme: try container.decodeIfPresent(Theme.self, forKey: .theme),
      attendees: try container.decodeIfPresent(AttendeesEdit.self, forKey: .attendees),
      meetingsAdded: try container.decode([Meeting].self, forKey: .meetingsAdded),
      meetingsRemoved: try container.decode([Meeting.ID].self, forKey: .meetingsRemoved),
      seen: Seen(
        title: try seenContainer.decodeIfPresent(String.self, forKey: .title),
        duration: try Self.decodeDuration(seenContainer, .durationSeconds),
        theme: try seenContainer.decodeIfPresent(Theme.self, forKey: .theme),
        attendeeNames: Dictionary(
          try seenContainer.decode([Attendee].self, forKey: .attendeeNames).map {
            ($0.id, $0.name)
          },
          uniquingKeysWith: { first, _ in first }),
        attendeeOrder: try seenContainer.decodeIfPresent([Attendee.ID].self, forKey: .attendeeOrder)
      )
    )
  }

  /// Encodes an edit: only the fields it changes, and what they held where it was made.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encodeIfPresent(
      duration.map { Double($0.inMilliseconds) / 1000 }, forKey: .durationSeconds)
    try container.encodeIfPresent(theme, forKey: .theme)
    try container.encodeIfPresent(attendees, forKey: .attendees)
    try container.encode(meetingsAdded, forKey: .meetingsAdded)
    try container.encode(meetingsRemoved, forKey: .meetingsRemoved)
    var seenContainer = container.nestedContainer(keyedBy: SeenKeys.self, forKey: .seen)
    try seenContainer.encodeIfPresent(seen.title, forKey: .title)
    try seenContainer.encodeIfPresent(
      seen.duration.map { Double($0.inMilliseconds) / 1000 }, forKey: .durationSeconds)
    try seenContainer.encodeIfPresent(seen.theme, forKey: .theme)
    // NB: Sorted by ID, so that one edit always encodes to the same text.
    try seenContainer.encode(
      seen.attendeeNames.map { Attendee(id: $0.key, name: $0.value) }
        .sorted { $0.id.rawValue.uuidString < $1.id.rawValue.uuidString },
      forKey: .attendeeNames)
    try seenContainer.encodeIfPresent(seen.attendeeOrder, forKey: .attendeeOrder)
  }

  private static func decodeDuration<Key: CodingKey>(
    _ container: KeyedDecodingContainer<Key>, _ key: Key
  ) throws -> Duration? {
    guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else {
      return nil
    }
    // NB: Checked before it becomes a duration: converting a huge number would trap.
    let longest = Double(StandupRules.longestDuration.components.seconds)
    guard seconds.isFinite, (0...longest).contains(seconds) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container, debugDescription: "\(StandupRules.durationRule) Not \(seconds)."
      )
    }
    let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
    return duration
  }
}

extension AttendeesEdit: Codable {
  private enum CodingKeys: String, CodingKey {
    case added, removed, renamed, order
  }

  /// Decodes what changed among the attendees.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      added: try container.decode([Attendee].self, forKey: .added),
      removed: try container.decode([Attendee.ID].self, forKey: .removed),
      renamed: try container.decode([Attendee].self, forKey: .renamed),
      order: try container.decode([Attendee.ID].self, forKey: .order)
    )
  }

  /// Encodes what changed among the attendees.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(added, forKey: .added)
    try container.encode(removed, forKey: .removed)
    try container.encode(renamed, forKey: .renamed)
    try container.encode(order, forKey: .order)
  }
}
