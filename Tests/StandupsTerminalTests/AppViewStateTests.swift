import AppFeature
import Composable
import MeetingFeature
import Models
import StandupDetail
import StandupsTerminal
import TerminalUI
import Testing

/// View state lives by stack ID: popped screens lose theirs, pushed screens start fresh.
@MainActor
struct AppViewStateTests {
  @Test func popThenPushTheSameStandupStartsFresh() async {
    await withSerialEffects {
      let driver = await Driver(standups: [Fixtures.design])
      await driver.start()
      driver.press(.enter, .down, .down)
      let first = driver.state.path.ids[0]
      #expect(driver.app.view[screen: first].selection == 2)

      driver.press(.escape, .enter)
      let second = driver.state.path.ids[0]
      #expect(second != first)
      #expect(driver.app.view[screen: second] == ScreenViewState())
      #expect(Set(driver.app.view.screens.keys) == [second])
    }
  }

  @Test func aThousandPushPopCyclesLeaveOnlyTheScreensOnTheStack() async {
    await withSerialEffects {
      let driver = await Driver(standups: [Fixtures.design])
      await driver.start()
      for cycle in 0..<1_000 {
        driver.press(.enter)
        if cycle.isMultiple(of: 3) {
          driver.press(.down, .enter, .character("j"), .escape)
        }
        driver.press(.escape)
      }
      #expect(driver.state.path.isEmpty)
      #expect(driver.app.view.screens.count == 0)

      driver.press(.enter, .enter)
      #expect(driver.state.path.count == 2)
      #expect(Set(driver.app.view.screens.keys) == Set(driver.state.path.ids))
    }
  }

  @Test func aScreenPushedByTheReducerOrReplacedWholeGetsFreshViewState() {
    var state = Fixtures.app(path: [.detail(StandupDetail.State(standup: Fixtures.design))])
    var view = AppViewState()
    view.update(from: state)
    let detail = state.app.path.ids[0]
    view[screen: detail].selection = 2

    state.app.path.append(.detail(StandupDetail.State(standup: .engineeringMock)))
    let change = view.update(from: state)
    #expect(change.popped.isEmpty)
    #expect(change.pushed == [state.app.path.ids[1]])
    #expect(view[screen: detail].selection == 2)

    state.app.path = StackState([.detail(StandupDetail.State(standup: .productMock))])
    let replaced = view.update(from: state)
    #expect(Set(replaced.popped) == [detail, change.pushed[0]])
    #expect(Set(view.screens.keys) == Set(state.app.path.ids))
  }

  /// A screen opened some other way than from the row selected under it (`--open`, screens
  /// restored at launch, a meeting opened from a standup that was then scrolled) selects, when
  /// uncovered, the row of what was closed.
  @Test func aScreenUncoveredByAPopSelectsWhatWasClosed() {
    let standup = Standup.productMock
    let meeting = Fixtures.design.meetings[1]
    var withMeetings = standup
    withMeetings.meetings = Fixtures.design.meetings
    var state = Fixtures.app(path: [
      .detail(StandupDetail.State(standup: withMeetings)),
      .meeting(MeetingFeature.State(meeting: meeting, standup: withMeetings)),
    ])
    var view = AppViewState()
    view.update(from: state)
    #expect(view.list.selection == 0)
    #expect(view[screen: state.app.path.ids[0]].selection == 0)

    state.app.path.removeLast()
    view.update(from: state)
    #expect(view[screen: state.app.path.ids[0]].selection == 1, "the meeting that was open")

    state.app.path.removeLast()
    view.update(from: state)
    #expect(view.list.selection == 2, "the standup that was open, third in the list")
  }

  @Test func alertsAboutTheDataNameTheFileAndTheBackupOnceKept() {
    var state = Fixtures.app()
    state.alert = .saveFailed(Fixtures.diskFull)
    var view = AppViewState()
    view.dataFile = "/home/blob/standups.json"
    view.update(from: state)
    var screen = AppView.render(state, view, size: wide, format: utc).plainText
    #expect(screen.contains("Data file: /home/blob/standups.json"))
    #expect(!screen.contains("Kept aside"))

    state.alert = nil
    state.storage.backup = "/home/blob/standups.backup-1.json"
    view.update(from: state)
    #expect(
      view.notice == "The unreadable data file was kept aside as /home/blob/standups.backup-1.json."
    )
    view.notice = nil
    view.update(from: state)
    #expect(view.notice == nil, "said once")

    state.alert = .saveFailed(Fixtures.diskFull)
    view.update(from: state)
    screen = AppView.render(state, view, size: wide, format: utc).plainText
    #expect(screen.contains("Kept aside as: /home/blob/standups.backup-1.json"))
  }

  @Test func aNewAlertStartsOnItsHarmlessButton() {
    var state = Fixtures.app()
    var view = AppViewState()
    state.app.list.alert = .deleteStandup(Fixtures.design)
    view.update(from: state)
    #expect(view.alertSelection == 1, "Cancel, not Delete")
    view.alertSelection = 0
    view.update(from: state)
    #expect(view.alertSelection == 0)

    state.app.list.alert = .deleteStandup(.engineeringMock)
    view.update(from: state)
    #expect(view.alertSelection == 1)

    state.app.list.alert = nil
    state.alert = .dataFailedToLoad(Fixtures.diskFull)
    view.update(from: state)
    #expect(view.alertSelection == 2, "Continue without saving, not Keep it aside")
  }
}
