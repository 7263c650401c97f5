import AppFeature
import Composable
import Foundation
import Models
import StandupsTerminal
import StorageClient
import TerminalUI
import Testing

/// The form's keys, through a real store: keys in, the form's state and the saved standup out.
@MainActor
struct FormKeyMapTests {
  @Test func addFillAndConfirmAStandup() async {
    await withSerialEffects {
      let driver = await Driver()
      await driver.start()
      driver.press(.character("a"))
      #expect(driver.state.destination?.is(\.add) == true)
      #expect(driver.screen.contains("New standup"))

      driver.type("Retro")
      driver.press(.tab, .right, .right)
      driver.press(.tab, .right)
      driver.press(.tab)
      driver.type("Blob")
      driver.press(.control("a"))
      driver.type("Blob Jr")
      driver.press(.enter)

      #expect(driver.state.destination == nil)
      let standup = driver.state.list.standups.first
      #expect(standup?.title == "Retro")
      #expect(standup?.duration == .seconds(7 * 60))
      #expect(standup?.theme == Theme.allCases[1])
      #expect(standup?.attendees.map(\.name) == ["Blob", "Blob Jr"])
      #expect(driver.screen.contains("Retro"))

      await driver.app.flush()
      #expect(await driver.stored()?.map(\.title) == ["Retro"])
    }
  }

  @Test func pageUpAndPageDownMoveTheFocusedAttendeeAndTheSaveKeepsTheOrder() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      let names = Standup.engineeringMock.attendees.map(\.name)
      driver.press(.enter, .character("e"))
      driver.press(.down, .down, .down, .down, .down)
      driver.press(.pageUp, .pageUp, .pageUp)
      #expect(
        driver.state.destination?[case: \.edit]?.standup.attendees.map(\.name)
          == [names[2], names[0], names[1]], "moved to the top, and no further")
      driver.press(.pageDown)
      driver.press(.enter)

      let saved = [names[0], names[2], names[1]]
      #expect(driver.state.list.standups.first?.attendees.map(\.name) == saved)
      await driver.app.flush()
      #expect(await driver.stored()?.first?.attendees.map(\.name) == saved)
    }
  }

  @Test func aFormWithoutATitleStaysOpenWithTheTitleFocused() async {
    await withSerialEffects {
      let driver = await Driver()
      await driver.start()
      driver.press(.character("a"), .tab, .tab, .tab)
      driver.type("Blob")
      driver.press(.enter)
      #expect(driver.state.destination?[case: \.add]?.focus == .title)
      #expect(driver.state.list.standups.isEmpty)

      driver.type("Standup")
      #expect(driver.state.destination?[case: \.add]?.standup.title == "Standup")
      driver.press(.escape)
      #expect(driver.state.destination == nil)
      #expect(driver.state.list.standups.isEmpty)
    }
  }
}
