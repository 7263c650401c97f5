import Foundation
import IdentifiedCollections

extension Standup {
  /// A standup with six attendees and one past meeting, for previews and tests.
  public static let mock = Self(
    id: Self.ID(mockUUID(0xA000)),
    attendees: [
      Attendee(id: Attendee.ID(mockUUID(0xA001)), name: "Blob"),
      Attendee(id: Attendee.ID(mockUUID(0xA002)), name: "Blob Jr"),
      Attendee(id: Attendee.ID(mockUUID(0xA003)), name: "Blob Sr"),
      Attendee(id: Attendee.ID(mockUUID(0xA004)), name: "Blob Esq"),
      Attendee(id: Attendee.ID(mockUUID(0xA005)), name: "Blob III"),
      Attendee(id: Attendee.ID(mockUUID(0xA006)), name: "Blob I"),
    ],
    duration: .seconds(60),
    meetings: [
      Meeting(
        id: Meeting.ID(mockUUID(0xA100)),
        date: Date(timeIntervalSince1970: 1_763_625_600),
        transcript: """
          Blob walked through the new onboarding designs. Blob Jr raised the question of \
          dark mode, and the team agreed to prototype it next week.
          """
      )
    ],
    theme: .orange,
    title: "Design"
  )

  /// A standup with three attendees and no meetings, for previews and tests.
  public static let engineeringMock = Self(
    id: Self.ID(mockUUID(0xB000)),
    attendees: [
      Attendee(id: Attendee.ID(mockUUID(0xB001)), name: "Blob"),
      Attendee(id: Attendee.ID(mockUUID(0xB002)), name: "Blob Jr"),
      Attendee(id: Attendee.ID(mockUUID(0xB003)), name: "Blob Sr"),
    ],
    duration: .seconds(10 * 60),
    theme: .periwinkle,
    title: "Engineering"
  )

  /// A standup with two attendees and no meetings, for previews and tests.
  public static let productMock = Self(
    id: Self.ID(mockUUID(0xC000)),
    attendees: [
      Attendee(id: Attendee.ID(mockUUID(0xC001)), name: "Blob Sr"),
      Attendee(id: Attendee.ID(mockUUID(0xC002)), name: "Blob Jr"),
    ],
    duration: .seconds(30 * 60),
    theme: .poppy,
    title: "Product"
  )
}

/// A fixed UUID whose last digits are `value`, so that mocks are stable across runs.
private func mockUUID(_ value: Int) -> UUID {
  let suffix = String(value, radix: 16, uppercase: true)
  let padded = String(repeating: "0", count: 12 - suffix.count) + suffix
  // NB: The string is a valid UUID by construction for every value that fits in 12 digits,
  // which all mock values do.
  return UUID(uuidString: "00000000-0000-0000-0000-\(padded)")!
}

extension Standup {
  /// A standup of any shape the app can hold, for tests: durations to the millisecond, dates to
  /// the instant, any text, meetings newest first.
  public static func random(using random: inout some RandomNumberGenerator) -> Self {
    func uuid() -> UUID {
      let high = random.next()
      let low = random.next()
      return withUnsafeBytes(of: (high, low)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }
    func text() -> String {
      let pieces = ["Blob", "Ada", "Grace", "ü", "日本", "🦆", "\"quoted\"", "line\nbreak", " ", ""]
      return (0..<Int.random(in: 0...4, using: &random))
        .map { _ in pieces.randomElement(using: &random)! }
        .joined(separator: " ")
    }
    return Standup(
      id: Standup.ID(uuid()),
      attendees: IdentifiedArray(
        uniqueElements: (0..<Int.random(in: 0...6, using: &random)).map { _ in
          Attendee(id: Attendee.ID(uuid()), name: text())
        }
      ),
      duration: .milliseconds(Int64.random(in: 0...86_400_000, using: &random)),
      meetings: IdentifiedArray(
        uniqueElements: (0..<Int.random(in: 0...4, using: &random)).map { _ -> Meeting in
          Meeting(
            id: Meeting.ID(uuid()),
            date: Date(
              timeIntervalSinceReferenceDate: Double.random(
                in: -1e9...2e9,
                using: &random
              )
            ),
            transcript: text()
          )
        }
        .sorted { $0.date > $1.date }
      ),
      theme: Theme.allCases.randomElement(using: &random)!,
      title: text()
    )
  }
}
