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

  /// A title quoted in at most some characters is the display title, or its start and "…"; a
  /// title that is only blank at its start is not "Untitled".
  @Test func theDisplayTitleInAtMostSomeCharacters() {
    let cases: [(title: String, maxLength: Int, shown: String)] = [
      ("Weekly\tsync", 8, "Weekly …"),
      ("Weekly\tsync", 11, "Weekly sync"),
      ("Weekly\tsync", 10, "Weekly sy…"),
      ("中文字", 2, "中…"),
      ("e\u{301}e\u{301}e\u{301}", 3, "e\u{301}e\u{301}e\u{301}"),
      (" \t\n ", 3, "Untitled"),
      ("      x", 3, "  …"),
      ("Design", 1, "…"),
    ]
    for (title, maxLength, shown) in cases {
      let standup = Standup(id: Standup.ID(UUID(0)), title: title)
      #expect(standup.displayTitle(maxLength: maxLength) == shown, "\(title.debugDescription)")
    }
    let long = Standup(id: Standup.ID(UUID(0)), title: String(repeating: "Retro ", count: 100_000))
    #expect(long.displayTitle(maxLength: 12) == "Retro Retro…")
  }
}
