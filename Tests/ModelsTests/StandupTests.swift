import Dependencies
import Foundation
import Models
import Testing

struct StandupTests {
  @Test func durationPerAttendeeSharesTheDuration() {
    var standup = Standup.engineeringMock
    standup.duration = .seconds(60)
    #expect(standup.durationPerAttendee == .seconds(20))
  }

  @Test func aStandupWithoutAttendeesIsOneTurn() {
    let standup = Standup(id: Standup.ID(UUID(0)), duration: .seconds(60))
    #expect(standup.durationPerAttendee == .seconds(60))
  }

  @Test func aDurationShorterThanTheAttendeeCountGivesShortTurns() {
    var standup = Standup.mock
    standup.duration = .seconds(3)
    #expect(standup.attendees.count == 6)
    #expect(standup.durationPerAttendee == .milliseconds(500))
  }

  @Test func aZeroDurationGivesZeroTurns() {
    var standup = Standup.mock
    standup.duration = .zero
    #expect(standup.durationPerAttendee == .zero)
  }

  @Test func everyThemeHasAReadableAccent() {
    #expect(Theme.allCases.count == 16)
    for theme in Theme.allCases {
      #expect(
        theme.mainColor.contrastRatio(with: theme.accentColor) >= 4.5,
        "\(theme.name) is hard to read"
      )
    }
    #expect(Theme.periwinkle.name == "Periwinkle")
  }

  @Test func theDisplayTitleIsOneLineAndNeverBlank() {
    var standup = Standup(id: Standup.ID(UUID(0)), title: "Weekly\tsync\r\nnotes\u{2028}v2")
    #expect(standup.displayTitle == "Weekly sync notes v2")
    #expect(standup.title == "Weekly\tsync\r\nnotes\u{2028}v2")
    for blank in ["", " ", "\t\n", "\u{3000}"] {
      standup.title = blank
      #expect(standup.displayTitle == "Untitled")
    }
    standup.title = " Design "
    #expect(standup.displayTitle == " Design ")
  }
}
