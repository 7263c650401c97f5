import Foundation
import IdentifiedCollections
import Tagged

// The JSON format of the models. It is meant to be read and fixed by hand, so it uses plain
// names, seconds for durations and ISO 8601 for dates:
//
//   {
//     "id": "9A1C2B3D-…",
//     "title": "Design",
//     "theme": "bubblegum",
//     "durationSeconds": 300,
//     "attendees": [{ "id": "…", "name": "Blob" }],
//     "meetings": [{ "id": "…", "date": "2026-11-20T09:30:00Z", "transcript": "…" }]
//   }
//
// `StandupsFile` wraps a list of these with a format version.

extension Standup: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, title, theme, durationSeconds, attendees, meetings
  }

  /// The longest duration the file format accepts: a day, far beyond any stand-up, and far
  /// below what a `Duration` can hold, so that a hand-edited number can never overflow it.
  static let longestDurationInSeconds: Double = 24 * 60 * 60

  /// Decodes a standup, rejecting negative or non-finite durations.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(Tagged<Self, UUID>.self, forKey: .id)
    let title = try container.decode(String.self, forKey: .title)
    let theme = try container.decode(Theme.self, forKey: .theme)
    let seconds = try container.decode(Double.self, forKey: .durationSeconds)
    guard seconds.isFinite, (0...Self.longestDurationInSeconds).contains(seconds) else {
      throw DecodingError.dataCorruptedError(
        forKey: .durationSeconds,
        in: container,
        debugDescription: """
          A duration must be between 0 and \(Int(Self.longestDurationInSeconds)) seconds, not \
          \(seconds).
          """
      )
    }
    self.init(
      id: id,
      attendees: try container.decode(IdentifiedArrayOf<Attendee>.self, forKey: .attendees),
      duration: .milliseconds(Int64((seconds * 1000).rounded())),
      meetings: try container.decode(IdentifiedArrayOf<Meeting>.self, forKey: .meetings),
      theme: theme,
      title: title
    )
  }

  /// Encodes a standup in the documented format.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    try container.encode(theme, forKey: .theme)
    try container.encode(duration.inSeconds, forKey: .durationSeconds)
    try container.encode(attendees, forKey: .attendees)
    try container.encode(meetings, forKey: .meetings)
  }
}

extension Attendee: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, name
  }

  /// Decodes an attendee.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(Tagged<Self, UUID>.self, forKey: .id),
      name: try container.decode(String.self, forKey: .name)
    )
  }

  /// Encodes an attendee.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
  }
}

extension Meeting: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, date, transcript
  }

  /// Decodes a meeting, whose date must be an ISO 8601 string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let text = try container.decode(String.self, forKey: .date)
    guard let date = Date(iso8601: text) else {
      throw DecodingError.dataCorruptedError(
        forKey: .date,
        in: container,
        debugDescription: "Expected an ISO 8601 date such as 2026-11-20T09:30:00Z, not \"\(text)\"."
      )
    }
    self.init(
      id: try container.decode(Tagged<Self, UUID>.self, forKey: .id),
      date: date,
      transcript: try container.decode(String.self, forKey: .transcript)
    )
  }

  /// Encodes a meeting with an ISO 8601 date (with fractional seconds when it has them).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(date.iso8601, forKey: .date)
    try container.encode(transcript, forKey: .transcript)
  }
}

extension Duration {
  /// The duration as a number of seconds.
  public var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

extension Date {
  /// The date in ISO 8601, in UTC, with milliseconds only when it has a fraction of a second.
  var iso8601: String {
    let hasFraction = timeIntervalSince1970.rounded(.down) != timeIntervalSince1970
    return Date.ISO8601FormatStyle(includingFractionalSeconds: hasFraction).format(self)
  }

  /// Parses an ISO 8601 date, with or without fractional seconds.
  init?(iso8601 text: String) {
    let styles = [
      Date.ISO8601FormatStyle(includingFractionalSeconds: true),
      Date.ISO8601FormatStyle(),
    ]
    guard let date = styles.lazy.compactMap({ try? $0.parse(text) }).first else { return nil }
    self = date
  }
}
