import Composable
import Models
import Testing

/// `TerminalApp`'s own work beyond keys: what it does when the app must stop at once.
@MainActor
struct TerminalAppTests {
  /// What the terminal does on SIGTERM, SIGHUP or SIGQUIT (`LiveTerminal`): it keeps the meeting
  /// and flushes. Both finish on a clock that never moves, so stopping waits for the database
  /// alone; the pseudo-terminal test `beingStoppedDuringAMeetingKeepsEverythingTyped` runs the
  /// same through the real executable.
  @Test(.timeLimit(.minutes(1)))
  func stoppingDuringAMeetingKeepsItWithoutWaitingOnTheClock() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      driver.press(.enter)
      driver.press(.character("s"))
      await driver.settle(until: { driver.app.transcript.isListening }, "the meeting to listen")
      driver.type("Blob: the build is green")
      driver.press(.enter)
      driver.type("Blob Jr: almost")

      await driver.app.saveMeetingInProgress()
      await driver.app.flush()

      let stored = try? await driver.database.readStandups()
      #expect(
        stored?[id: Standup.engineeringMock.id]?.meetings.map(\.transcript)
          == ["Blob: the build is green\nBlob Jr: almost"])
      #expect(driver.clock.now == .init(), "no time passed")
    }
  }

  /// A person types ahead: `s` and the first lines come in one burst, handled before the meeting
  /// starts listening (an effect). The lines are the meeting's all the same.
  @Test(.timeLimit(.minutes(1)))
  func linesTypedAheadOfTheMeetingListeningAreItsTranscript() async {
    await withSerialEffects {
      let driver = await Driver(standups: [.engineeringMock])
      await driver.start()
      driver.press(.enter, .character("s"))
      driver.type("Blob: the build is green")
      driver.press(.enter)
      driver.type("Blob Jr: almost")
      #expect(driver.app.transcript.isListening == false, "typed ahead of the meeting's effect")
      #expect(!driver.screen.contains("› Blob: the build is green"), "the line left the prompt")

      let expected = "Blob: the build is green\nBlob Jr: almost"
      await driver.settle(
        until: { driver.state.path.last?[case: \.record]?.transcript == expected },
        "the meeting to hear both lines")
      await driver.app.saveMeetingInProgress()
      await driver.app.flush()
      let stored = try? await driver.database.readStandups()
      #expect(stored?[id: Standup.engineeringMock.id]?.meetings.map(\.transcript) == [expected])
    }
  }
}

/// The detail screen's `t`, in a team: it asks first, keeping the standup personal unless told.
@MainActor
struct ShareKeyTests {
  @Test func tAsksBeforeAStandupBecomesTheTeamsAndEnterKeepsItPersonal() async {
    let driver = await Driver(standups: [.mock])
    await driver.start()
    let (shares, shared) = AsyncStream.makeStream(of: Standup.ID.self)
    driver.app.shareWithTeam = { id, _ in shared.yield(id) }
    driver.press(.enter)
    driver.press(.character("?"))
    #expect(!driver.screen.contains("share with team"), "no team, no key")
    driver.press(.escape)
    driver.press(.character("t"))
    #expect(!driver.screen.contains("Share “"))

    driver.app.showTeam(["platform"], status: nil, shared: [:])
    driver.press(.character("?"))
    #expect(driver.screen.contains("share with team"))
    driver.press(.escape)
    driver.press(.character("t"))
    #expect(driver.screen.contains("Share “\(Standup.mock.title)” with “platform”?"))
    driver.press(.enter)
    #expect(!driver.screen.contains("with “platform”?"))

    driver.press(.character("t"), .character("s"))
    var iterator = shares.makeAsyncIterator()
    #expect(await iterator.next() == Standup.mock.id)
    driver.app.showTeam(["platform"], status: nil, shared: [Standup.mock.id: "platform"])
    driver.press(.character("?"))
    #expect(!driver.screen.contains("share with team"), "shared already")
  }
}
