import AppFeature
import Composable
import Foundation
import Models
import StandupsTerminal
import StorageClient
import TerminalUI
import Testing

/// The key maps, through a real store: keys in, actions and state out.
@MainActor
struct KeyMapTests {
  @Test func openStartAMeetingTypeTwoLinesEndAndSave() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      driver.press(.enter)
      #expect(driver.state.path.count == 1)
      driver.press(.character("s"))
      #expect(driver.state.path.count == 2)
      await driver.settle(until: { driver.app.transcript.isListening }, "the meeting to listen")

      driver.type("Blob: the build is green")
      driver.press(.enter)
      driver.type("Blob Jr: reviewing the parser")
      driver.press(.enter)
      let expected = "Blob: the build is green\nBlob Jr: reviewing the parser"
      await driver.settle(
        until: { driver.state.path.last?[case: \.record]?.transcript == expected },
        "both lines in the transcript")
      #expect(driver.screen.contains("Blob Jr: reviewing the parser"))

      await driver.clock.advance(by: .seconds(5))
      #expect(driver.state.path.last?[case: \.record]?.secondsElapsed == 5)

      driver.press(.control("e"))
      #expect(driver.state.path.last?[case: \.record]?.alert != nil)
      driver.press(.character("s"))
      await driver.settle(until: { driver.state.path.count == 1 }, "the recorder to close")

      let meeting = driver.state.list.standups[id: Standup.engineeringMock.id]?.meetings.first
      #expect(meeting?.transcript == expected)
      #expect(meeting?.date == day(0))
      #expect(driver.state.path.last?[case: \.detail]?.standup.meetings.first == meeting)
      #expect(driver.app.transcript.isListening == false)
      #expect(driver.screen.contains("Blob: the build is green Blob Jr: reviewing"))
    }
  }

  @Test func typingNeverStealsTheRecordersKeys() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      driver.press(.enter, .character("s"))
      await driver.settle(until: { driver.app.transcript.isListening }, "the meeting to listen")
      driver.type("snqed? ")
      // NB: Typed, these would pick the next speaker, end the meeting and add the line.
      driver.press(.paste("\u{E}q\u{5}\n"))
      let record = driver.state.path.last?[case: \.record]
      #expect(record?.speakerIndex == 0)
      #expect(record?.alert == nil)
      #expect(driver.state.path.count == 2)
      #expect(driver.app.isQuitRequested == false)
      #expect(driver.state.path.ids.last.map { driver.app.view[screen: $0].draft } == "snqed? q")

      driver.press(.control("n"))
      #expect(driver.state.path.last?[case: \.record]?.speakerIndex == 1)
      driver.press(.escape)
      #expect(driver.state.path.last?[case: \.record]?.alert != nil)
      driver.press(.character("d"))
      await driver.settle(until: { driver.state.path.count == 1 }, "the meeting to be discarded")
      #expect(driver.state.list.standups[id: Standup.engineeringMock.id]?.meetings.isEmpty == true)
    }
  }

  @Test func deletingASharedStandupSaysItGoesForTheWholeTeam() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock, .engineeringMock])
      driver.app.showTeam(
        ["platform"], status: nil, shared: [Standup.engineeringMock.id: "platform"])
      await driver.start()
      let forTheTeam = "It is shared with “platform”: it is deleted"
      driver.press(.character("d"))
      #expect(driver.screen.contains("Delete \"Design\"?"))
      #expect(!driver.screen.contains(forTheTeam), "Design is personal")
      driver.press(.escape, .down, .character("d"))
      #expect(driver.screen.contains("Delete \"Engineering\"?"))
      #expect(driver.screen.contains(forTheTeam))
      driver.press(.escape, .enter, .character("D"))
      #expect(driver.state.path.last?[case: \.detail]?.alert != nil)
      #expect(driver.screen.contains(forTheTeam))
      driver.press(.escape)
    }
  }

  @Test func deleteAStandupWithConfirmation() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock, .engineeringMock, .productMock])
      await driver.start()
      driver.press(.down, .character("d"))
      #expect(driver.state.list.alert != nil)
      #expect(driver.screen.contains("Delete \"Engineering\"?"))
      driver.press(.escape)
      #expect(driver.state.list.alert == nil)
      #expect(driver.state.list.standups.count == 3)

      // NB: Enter presses the harmless button, Cancel; the underlined letter presses Delete.
      driver.press(.character("d"), .enter)
      #expect(driver.state.list.standups.count == 3)
      driver.press(.character("d"), .character("d"))
      #expect(driver.state.list.standups.map(\.title) == ["Design", "Product"])

      driver.press(.enter, .character("D"))
      #expect(driver.state.path.last?[case: \.detail]?.alert != nil)
      driver.press(.character("d"))
      await driver.settle(until: { driver.state.path.isEmpty }, "the detail screen to close")
      #expect(driver.state.list.standups.map(\.title) == ["Design"])
      await driver.app.flush()
      #expect(await driver.stored()?.map(\.title) == ["Design"])
    }
  }

  @Test func aPasteRunsNoCommandAndGoesIntoATextFieldWhole() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock, .engineeringMock])
      await driver.start()
      // NB: Typed, these would delete the selected standup: "d", then Enter to confirm.
      driver.press(.paste("d\r"))
      #expect(driver.state.list.alert == nil)
      #expect(driver.state.list.standups.count == 2)
      #expect(driver.state.destination == nil)

      // NB: Nor does a paste press an alert's buttons, whose letters it holds.
      driver.press(.character("d"))
      #expect(driver.state.list.alert != nil)
      driver.press(.paste("Delete\r"))
      #expect(driver.state.list.alert != nil)
      #expect(driver.state.list.standups.count == 2)
      driver.press(.escape)

      driver.press(.character("a"))
      driver.type("Weekly ")
      driver.press(.paste("team\nsync\u{1B}[A"))
      #expect(driver.state.destination?[case: \.add]?.standup.title == "Weekly team sync[A")
      // NB: A key that closes the help also acts; a paste over it reaches the field.
      driver.press(.control("k"), .paste("!"))
      #expect(driver.state.destination?[case: \.add]?.standup.title == "Weekly team sync[A!")
      #expect(!driver.app.view.isShowingHelp)
    }
  }

  @Test func theKeyThatClosesTheHelpActsUnlessItIsTheHelpsOwn() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock])
      await driver.start()
      for own in [Key.escape, .control("k"), .character("?")] {
        driver.press(.character("?"))
        #expect(driver.app.view.isShowingHelp)
        driver.press(own)
        #expect(!driver.app.view.isShowingHelp, "\(own)")
        #expect(driver.state.destination == nil && driver.state.path.isEmpty, "\(own)")
      }

      driver.press(.character("?"), .character("a"))
      #expect(!driver.app.view.isShowingHelp)
      #expect(driver.state.destination?.is(\.add) == true, "a closed the help and opened the form")
      driver.press(.control("k"), .character("R"))
      #expect(driver.state.destination?[case: \.add]?.standup.title == "R")
      driver.press(.control("k"), .enter)
      #expect(driver.state.destination == nil, "Enter closed the help and added the standup")
      #expect(driver.state.list.standups.count == 2)
    }
  }

  @Test func aPasteCutAtTheLimitSaysSoUntilTheNextKey() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock])
      await driver.start()
      driver.press(.character("a"))
      driver.press(.paste("Weekly"), .pasteCut(droppedBytes: 70_000))
      #expect(driver.state.destination?[case: \.add]?.standup.title == "Weekly")
      #expect(driver.app.view.feedback?.contains("last 70000 bytes were left out") == true)
      #expect(driver.screen.contains("left out"))

      driver.press(.character("!"))
      #expect(driver.state.destination?[case: \.add]?.standup.title == "Weekly!")
      #expect(driver.app.view.feedback == nil)
    }
  }

  /// Where keys type text, a letter or `?` is text: the legend and the full list of keys show
  /// only keys that do not type (`^K` for the list), on the list they show `?` and letters.
  @Test func helpNeverListsAKeyThatTypesTextOnItsScreen() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock])
      await driver.start()
      #expect(driver.screen.contains("? keys"))
      #expect(driver.screen.contains("q quit"))

      func expectNoTypingKeyListed(on help: String, _ comment: Comment) {
        for entry in ["? keys", "? ^K", "q quit", "a add", "d delete", "s start", "e edit"] {
          #expect(!help.contains(entry), "\(entry) listed on \(comment)")
        }
        #expect(help.contains("^K"), comment)
      }

      driver.press(.character("a"))
      expectNoTypingKeyListed(on: driver.screen, "the form's legend")
      driver.press(.control("k"))
      #expect(driver.app.view.isShowingHelp)
      expectNoTypingKeyListed(on: driver.screen, "the form's keys")
      driver.press(.escape, .escape)

      driver.press(.enter, .character("s"))
      #expect(driver.state.path.last?.is(\.record) == true)
      expectNoTypingKeyListed(on: driver.screen, "the recorder's legend")
      driver.press(.control("k"))
      expectNoTypingKeyListed(on: driver.screen, "the recorder's keys")
    }
  }

  @Test func escapePopsExactlyOneScreen() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock])
      await driver.start()
      driver.press(.enter, .enter)
      #expect(driver.state.path.count == 2)
      #expect(driver.state.path.last?.is(\.meeting) == true)

      driver.press(.escape)
      #expect(driver.state.path.count == 1)
      #expect(driver.state.path.last?.is(\.detail) == true)
      driver.press(.escape)
      #expect(driver.state.path.isEmpty)
      driver.press(.escape)
      #expect(driver.state.path.isEmpty)
      #expect(driver.app.isQuitRequested == false)
    }
  }

  @Test func quittingDuringAMeetingAsksFirst() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      driver.press(.enter, .character("s"))
      await driver.settle(until: { driver.app.transcript.isListening }, "the meeting to listen")

      driver.press(.control("c"))
      #expect(driver.app.isQuitRequested == false)
      #expect(driver.state.path.last?[case: \.record]?.alert != nil)
      driver.press(.character("r"))
      #expect(driver.state.path.last?[case: \.record]?.alert == nil)
      #expect(driver.app.view.isQuittingAfterMeeting == false)

      driver.press(.control("c"), .character("s"))
      await driver.settle(until: { driver.app.isQuitRequested }, "the app to quit")
      #expect(driver.state.list.standups[id: Standup.engineeringMock.id]?.meetings.count == 1)
      await driver.app.flush()
      #expect(await driver.stored()?.first?.meetings.count == 1)
    }
  }

  @Test func alertButtonsBySelection() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.mock, .engineeringMock])
      await driver.start()
      driver.press(.character("d"))
      #expect(driver.app.view.alertSelection == 1, "Cancel, the harmless button, is the default")
      driver.press(.enter)
      #expect(driver.state.list.alert == nil)
      #expect(driver.state.list.standups.count == 2)

      driver.press(.character("d"), .left)
      #expect(driver.app.view.alertSelection == 0)
      driver.press(.enter)
      #expect(driver.state.list.standups.map(\.title) == ["Engineering"])
      driver.press(.character("d"))
      #expect(driver.app.view.alertSelection == 1)
    }
  }

  @Test func quittingWithChangesThatCannotBeSavedKeepsThemBeforeAskingAndEnterStays() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("standups-keys-\(UUID().uuidString)", isDirectory: true)
    let path = folder.appendingPathComponent("standups.sqlite").path
    let setUp = StandupsDatabase(path: path)
    _ = try await setUp.load()
    try await setUp.apply(.added([.mock]))
    #expect(chmod(path, 0o444) == 0)
    defer {
      chmod(path, 0o600)
      try? FileManager.default.removeItem(at: folder)
    }
    try await withSerialEffects {
      let driver = await Driver(database: StandupsDatabase(path: path))
      await driver.start()
      #expect(driver.screen.contains("Changes will not be saved"))
      // NB: Shown at launch, the alert takes keys only once the keyboard has been quiet.
      driver.press(.enter)
      #expect(driver.persisted.alert != nil)
      await driver.clock.advance(by: .seconds(1))
      driver.press(.enter)
      #expect(driver.persisted.alert == nil)
      driver.press(.character("a"))
      driver.type("Retro")
      driver.press(.enter)
      #expect(driver.state.list.standups.map(\.title) == ["Design", "Retro"])
      await driver.clock.advance(by: .seconds(1))

      driver.app.recoveryPlaces = [folder.appendingPathComponent("state")]
      driver.press(.character("q"))
      #expect(driver.app.isQuitRequested)
      #expect(await driver.app.mayQuit() == false)
      let kept = try #require(driver.app.preparedRecoveryFile, "written before it is named")
      #expect(FileManager.default.fileExists(atPath: kept.path))
      #expect(driver.screen.contains("Quit with unsaved changes?"))
      await driver.clock.advance(by: .seconds(1))
      driver.press(.enter)
      #expect(driver.app.view.quitQuestion == nil, "Enter stays")
      #expect(driver.app.isQuitRequested == false)
      #expect(!FileManager.default.fileExists(atPath: kept.path), "staying takes the file back")

      // NB: Nowhere to keep a recovery file: the question says the changes would be lost.
      driver.app.recoveryPlaces = [
        URL(fileURLWithPath: path).appendingPathComponent("not/a/folder")
      ]
      driver.press(.character("q"))
      #expect(await driver.app.mayQuit() == false)
      #expect(driver.screen.contains("Quit and lose your changes?"))
      #expect(driver.app.view.alertSelection == 0, "Stay, the harmless button, is the default")
      await driver.clock.advance(by: .seconds(1))
      // NB: A second Ctrl-C answers the question: quit.
      driver.press(.control("c"))
      #expect(driver.app.isQuitRequested)
      #expect(await driver.app.mayQuit())
    }
  }
}
