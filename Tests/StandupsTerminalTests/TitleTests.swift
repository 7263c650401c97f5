import Composable
import Foundation
import Models
import StandupsTerminal
import TerminalUI
import Testing

/// A title as a person sees it wherever one is shown: the list, the breadcrumb above a standup's
/// screens, and the alert that asks before deleting it. An outside edit of the data file can put
/// anything in a title.
@MainActor
struct TitleTests {
  nonisolated static let blank = Standup(
    id: Standup.ID(uuid(0xB1)), attendees: [Attendee(id: Attendee.ID(uuid(0xB2)), name: "Blob")],
    title: " \t\n ")
  nonisolated static let tabbed = Standup(
    id: Standup.ID(uuid(0xB3)), attendees: [Attendee(id: Attendee.ID(uuid(0xB4)), name: "Blob")],
    title: "Weekly\tsync\r\nnotes")

  /// A whitespace-only title shows as untitled; tabs and line breaks in a title show as spaces.
  @Test(arguments: [(blank, "Untitled"), (tabbed, "Weekly sync notes")])
  func aTitleShowsAsOneLineOfText(standup: Standup, shown: String) async {
    await withSerialEffects {
      let driver = await Driver(standups: [standup])
      await driver.start()
      #expect(driver.screen.contains("   \(shown) "))

      driver.press(.character("d"))
      #expect(driver.screen.contains("Delete \"\(shown)\"?"))
      driver.press(.escape)

      driver.press(.enter)
      #expect(driver.screen.hasPrefix(" Standups › \(shown)\n"))
    }
  }
}
