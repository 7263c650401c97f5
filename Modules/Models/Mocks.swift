import Foundation

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
