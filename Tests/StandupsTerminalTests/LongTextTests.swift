import Composable
import Foundation
import Models
import TerminalUI
import Testing

@testable import StandupsTerminal

/// A title, a name or a transcript brought in from a file can be of any length: every screen,
/// alert and notice shows the start of it, cut with "…", and `Benchmarks/long-text-ratio` holds
/// that a key costs what is drawn, not the length.
@MainActor
struct LongTextTests {
  /// Words, to `count` characters.
  nonisolated static func words(_ count: Int) -> String {
    let words = Array("the quick brown fox jumps over the lazy dog ")
    return String((0..<count).map { words[$0 % words.count] })
  }

  nonisolated static let length = 200_000

  nonisolated static let standup = Standup(
    id: Standup.ID(uuid(0x10)),
    attendees: [
      Attendee(id: Attendee.ID(uuid(0x11)), name: "Blob " + words(length)),
      Attendee(id: Attendee.ID(uuid(0x12)), name: "Blob Jr " + words(length)),
    ],
    meetings: [Meeting(id: Meeting.ID(uuid(0x13)), date: day(0), transcript: words(length))],
    title: words(length)
  )

  @Test func everyScreenShowsTheStartOfALongTextCutWithAnEllipsis() async {
    await withSerialEffects {
      let driver = await Driver(standups: [Self.standup])
      await driver.start()
      #expect(driver.screen.contains("   the quick brown fox jumps over the lazy dog the qu"))
      #expect(driver.screen.contains("… 2 people"))

      driver.press(.character("d"))
      #expect(driver.screen.contains("Delete \"the quick brown fox jumps over the lazy dog"))
      #expect(driver.screen.contains("…\"?"))
      driver.press(.escape)

      driver.press(.enter)
      #expect(driver.screen.hasPrefix(" Standups › the quick brown fox jumps over the lazy dog"))
      #expect(driver.screen.contains("Attendees  Blob the quick brown fox"))
      #expect(driver.screen.contains("22 Nov 2026 09:30  the quick brown fox"))

      driver.press(.enter)
      #expect(driver.screen.contains("1–"))
      driver.press(.end)
      #expect(driver.screen.contains(" of "))
      driver.press(.escape, .character("e"))
      #expect(driver.screen.contains("999+/100"))
      driver.press(.escape, .character("s"))
      #expect(driver.screen.contains("▶ Blob the quick brown fox"))
    }
  }

  /// The rows of a past meeting's transcript are kept from frame to frame while they are the
  /// rows of the transcript shown, at the width shown; a frame at another width wraps it again.
  @Test func aPastMeetingsTranscriptIsWrappedAgainForAnotherWidth() async {
    await withSerialEffects {
      let driver = await Driver(standups: [Fixtures.design])
      await driver.start()
      driver.press(.enter, .enter)
      _ = driver.screen
      let id = driver.state.path.ids[1]
      #expect(driver.app.view[screen: id].wrappedTranscript?.width == 78)

      driver.size = narrow
      var fresh = AppViewState()
      fresh.update(from: driver.persisted)
      let redrawn = AppView.render(driver.persisted, fresh, size: narrow, format: utc)
      #expect(driver.screen == redrawn.plainText)
      #expect(driver.app.view[screen: id].wrappedTranscript?.width == 38)
    }
  }
}
