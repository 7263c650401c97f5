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
  static let blank = Standup(
    id: Standup.ID(uuid(0xB1)), attendees: [Attendee(id: Attendee.ID(uuid(0xB2)), name: "Blob")],
    title: " \t\n ")
  static let tabbed = Standup(
    id: Standup.ID(uuid(0xB3)), attendees: [Attendee(id: Attendee.ID(uuid(0xB4)), name: "Blob")],
    title: "Weekly\tsync\r\nnotes")

  @Test func aWhitespaceOnlyTitleShowsAsUntitled() async {
    await withSerialEffects {
      let driver = Driver(standups: [Self.blank])
      await driver.start()
      #expect(driver.screen.contains("   Untitled"))

      driver.press(.character("d"))
      #expect(driver.screen.contains("Delete \"Untitled\"?"))
      driver.press(.escape)

      driver.press(.enter)
      #expect(driver.screen.hasPrefix(" Standups › Untitled\n"))
    }
  }

  @Test func tabsAndLineBreaksInATitleShowAsSpaces() async {
    await withSerialEffects {
      let driver = Driver(standups: [Self.tabbed])
      await driver.start()
      #expect(driver.screen.contains("   Weekly sync notes "))

      driver.press(.character("d"))
      #expect(driver.screen.contains("Delete \"Weekly sync notes\"?"))
      driver.press(.escape)

      driver.press(.enter)
      #expect(driver.screen.hasPrefix(" Standups › Weekly sync notes\n"))
    }
  }
}
