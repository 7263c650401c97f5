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
// What is written reads back equal: durations are kept to the millisecond (the form sets whole
// minutes; a hand-edited file is read to the millisecond), and a date is written with as many
// fractional digits as it takes to read back the same instant ("2026-11-20T09:30:00Z" for a
// whole second, more digits for a clock reading). `StandupsFile` wraps a list of these with a
// format version.

extension Standup: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, title, theme, durationSeconds, attendees, meetings
  }

  /// Decodes a standup, refusing what ``StandupRules`` refuses: a negative or non-finite
  /// duration, or one longer than a day.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(Tagged<Self, UUID>.self, forKey: .id)
    let title = try container.decode(String.self, forKey: .title)
    let theme = try container.decode(Theme.self, forKey: .theme)
    let seconds = try container.decode(Double.self, forKey: .durationSeconds)
    let longest = Double(StandupRules.longestDuration.components.seconds)
    guard seconds.isFinite, (0...longest).contains(seconds) else {
      throw DecodingError.dataCorruptedError(
        forKey: .durationSeconds,
        in: container,
        debugDescription: "\(StandupRules.durationRule) Not \(seconds)."
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
    try container.encode(Double(duration.inMilliseconds) / 1000, forKey: .durationSeconds)
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
    if let reason = StandupRules.violation(ofMeetingDate: date) {
      throw DecodingError.dataCorruptedError(
        forKey: .date, in: container, debugDescription: "\(reason) Not \"\(text)\".")
    }
    self.init(
      id: try container.decode(Tagged<Self, UUID>.self, forKey: .id),
      date: date,
      transcript: try container.decode(String.self, forKey: .transcript)
    )
  }

  /// Encodes a meeting with an ISO 8601 date, exact to the instant; refuses a date that ISO 8601
  /// cannot write with a four-digit year (``StandupRules``), rather than write another date.
  public func encode(to encoder: any Encoder) throws {
    if let reason = StandupRules.violation(ofMeetingDate: date) {
      throw EncodingError.invalidValue(
        date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: reason))
    }
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

  /// The duration in whole milliseconds, rounded to the nearest: how the data file and the
  /// database keep it.
  public var inMilliseconds: Int64 {
    components.seconds * 1000
      + Int64((Double(components.attoseconds) / 1e15).rounded())
  }
}

extension Date {
  /// The date in ISO 8601, in UTC, with the fractional digits it takes for ``init(iso8601:)``
  /// to read back exactly this instant: none for a whole second.
  var iso8601: String {
    let instant = timeIntervalSinceReferenceDate
    let whole = instant.rounded(.down)
    // NB: `instant` and `whole` are within a second of each other, so the difference is exact.
    let fraction = instant - whole
    let base = Date(timeIntervalSinceReferenceDate: whole).formatted(Date.ISO8601FormatStyle())
    guard fraction > 0 else { return base }
    // NB: The shortest digits that read back exactly; a fraction too small for 20 digits (an
    // instant just past a whole second near 2001) gets its exact expansion, which always does.
    let text =
      (1...20).lazy
      .map { String(format: "%.\($0)f", fraction) }
      .first { Double($0).map { whole + $0 == instant } ?? false }
      ?? String(String(format: "%.1100f", fraction).reversed().drop { $0 == "0" }.reversed())
    // NB: `text` is "0.ddd"; the digits go before the "Z" of the whole-second form.
    return base.dropLast() + text.dropFirst() + "Z"
  }

  /// Parses an ISO 8601 date, with any number of fractional digits.
  init?(iso8601 text: String) {
    var whole = text
    var fraction = 0.0
    if let dot = text.firstIndex(of: "."),
      let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" })
    {
      let digits = text[text.index(after: dot)..<zone]
      guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit),
        let value = Double("0.\(digits)")
      else { return nil }
      fraction = value
      whole = String(text[..<dot] + text[zone...])
    }
    guard let date = try? Date.ISO8601FormatStyle().parse(whole) else { return nil }
    self.init(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate + fraction)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool {
    ("0"..."9").contains(self)
  }
}

extension StandupValue: Codable {
  private enum CodingKeys: String, CodingKey {
    case title, durationSeconds, theme, attendee, attendeeRemoved, attendeeOrder
  }

  /// Decodes a value: an object with one key naming its field, as ``encode(to:)`` writes it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let title = try container.decodeIfPresent(String.self, forKey: .title) {
      self = .title(title)
    } else if let seconds = try container.decodeIfPresent(Double.self, forKey: .durationSeconds) {
      let duration = Duration.milliseconds(Int64((seconds * 1000).rounded()))
      guard seconds.isFinite, StandupRules.violation(ofDuration: duration) == nil else {
        throw DecodingError.dataCorruptedError(
          forKey: .durationSeconds, in: container,
          debugDescription: "\(StandupRules.durationRule) Not \(seconds).")
      }
      self = .duration(duration)
    } else if let theme = try container.decodeIfPresent(Theme.self, forKey: .theme) {
      self = .theme(theme)
    } else if let attendee = try container.decodeIfPresent(Attendee.self, forKey: .attendee) {
      self = .attendeeName(attendee)
    } else if let attendee = try container.decodeIfPresent(Attendee.self, forKey: .attendeeRemoved)
    {
      self = .attendeeRemoved(attendee)
    } else {
      self = .attendeeOrder(
        try container.decode([Attendee.ID].self, forKey: .attendeeOrder))
    }
  }

  /// Encodes a value as an object with one key naming its field: `{"title": "Design"}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .title(let title): try container.encode(title, forKey: .title)
    case .duration(let duration):
      try container.encode(Double(duration.inMilliseconds) / 1000, forKey: .durationSeconds)
    case .theme(let theme): try container.encode(theme, forKey: .theme)
    case .attendeeName(let attendee): try container.encode(attendee, forKey: .attendee)
    case .attendeeRemoved(let attendee): try container.encode(attendee, forKey: .attendeeRemoved)
    case .attendeeOrder(let order): try container.encode(order, forKey: .attendeeOrder)
    }
  }
}
