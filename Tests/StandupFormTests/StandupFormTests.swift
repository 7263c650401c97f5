import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import StandupForm
import Testing

@MainActor
struct StandupFormTests {
  func makeStore(_ standup: Standup) -> TestStore<StandupForm.State, StandupForm.Action> {
    TestStore(initialState: StandupForm.State(standup: standup)) {
      StandupForm()
    } withDependencies: {
      $0.uuid = .incrementing
    }
  }

  @Test func aNewStandupStartsWithOneBlankAttendee() {
    let state = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      StandupForm.State(standup: Standup(id: Standup.ID(UUID(9))))
    }
    #expect(state.standup.attendees == [Attendee(id: Attendee.ID(UUID(0)))])
    #expect(state.focus == .title)
  }

  /// Point-Free's own `edit` test of SyncUps: a name typed into the blank attendee of a standup
  /// that had none is saved; the blank attendee left blank is not.
  @Test func aNameTypedIntoTheBlankAttendeeOfAStandupWithoutAttendeesIsSaved() {
    var standup = Standup.mock
    standup.attendees = []
    var form = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      StandupForm.State(standup: standup)
    }
    #expect(form.edit.isEmpty, "the blank attendee alone is no change")

    form.standup.attendees[0].name = "Blob"

    #expect(form.edit.applied(to: standup).attendees.map(\.name) == ["Blob"])
  }

  @Test func addingAnAttendeeFocusesIt() async {
    let store = makeStore(.engineeringMock)

    await store.send(.addAttendeeButtonTapped) {
      $0.standup.attendees.append(Attendee(id: Attendee.ID(UUID(0))))
      $0.focus = .attendee(Attendee.ID(UUID(0)))
    }
    await store.send(.attendeeNameChanged(id: Attendee.ID(UUID(0)), name: "Blob IV")) {
      $0.standup.attendees[id: Attendee.ID(UUID(0))]?.name = "Blob IV"
    }
  }

  @Test func aTitleGrowsUpToItsLimitAndOneAlreadyPastItMayStillShrink() async {
    let store = makeStore(.engineeringMock)
    let full = String(repeating: "é", count: StandupForm.State.titleLimit)
    await store.send(.titleChanged(full)) {
      $0.standup.title = full
    }
    await store.send(.titleChanged(full + "!"))

    var long = Standup.engineeringMock
    long.title = String(repeating: "a", count: 150)
    let fromAFile = makeStore(long)
    await fromAFile.send(.titleChanged(String(repeating: "a", count: 149))) {
      $0.standup.title = String(repeating: "a", count: 149)
    }
    await fromAFile.send(.titleChanged(String(repeating: "a", count: 151)))
  }

  @Test func removingAnAttendeeFocusesTheNearestOne() async {
    let standup = Standup.engineeringMock
    let store = makeStore(standup)

    await store.send(.deleteAttendees(atOffsets: [1])) {
      $0.standup.attendees.remove(at: 1)
      $0.focus = .attendee(standup.attendees[2].id)
    }
    await store.send(.deleteAttendees(atOffsets: [1])) {
      $0.standup.attendees.remove(at: 1)
      $0.focus = .attendee(standup.attendees[0].id)
    }
  }

  @Test func removingEveryAttendeeLeavesANewBlankOne() async {
    let store = makeStore(.engineeringMock)

    await store.send(.deleteAttendees(atOffsets: [0, 1, 2])) {
      $0.standup.attendees = [Attendee(id: Attendee.ID(UUID(0)))]
      $0.focus = .attendee(Attendee.ID(UUID(0)))
    }
  }

  @Test func offsetsPastTheEndAreIgnored() async {
    let store = makeStore(.engineeringMock)

    await store.send(.deleteAttendees(atOffsets: [7]))
  }

  @Test func movingAnAttendeeKeepsTheFocusOnThemAndTheSaveCarriesTheOrder() async {
    let standup = Standup.engineeringMock
    let store = makeStore(standup)
    let ids = standup.attendees.ids
    await store.send(.focusChanged(.attendee(ids[2]))) { $0.focus = .attendee(ids[2]) }
    await store.send(.moveAttendees(fromOffsets: [2], toOffset: 0)) {
      let moved = $0.standup.attendees.remove(at: 2)
      $0.standup.attendees.insert(moved, at: 0)
    }
    #expect(store.state.focus == .attendee(ids[2]))
    #expect(store.state.edit.attendees?.order == [ids[2], ids[0], ids[1]])
    // NB: An offset past the end moves no one; a destination past the end is the end.
    await store.send(.moveAttendees(fromOffsets: [9], toOffset: 0))
    await store.send(.moveAttendees(fromOffsets: [0], toOffset: 99)) {
      $0.standup.attendees = standup.attendees
    }
  }

  @Test func renamingAMissingAttendeeIsReported() async {
    let store = makeStore(.engineeringMock)

    await withKnownIssue {
      await store.send(.attendeeNameChanged(id: Attendee.ID(UUID(42)), name: "Ghost"))
    } matching: { issue in
      issue.description.contains("The form has no attendee")
    }
  }

  @Test func theLengthStaysBetweenFiveAndThirtyWholeMinutes() async {
    let store = makeStore(.engineeringMock)

    await store.send(.durationChanged(minutes: 15)) { $0.standup.duration = .seconds(15 * 60) }
    await store.send(.durationChanged(minutes: 90)) { $0.standup.duration = .seconds(30 * 60) }
    await store.send(.durationChanged(minutes: 0)) { $0.standup.duration = .seconds(5 * 60) }
    #expect(store.state.durationInMinutes == 5)
  }

  @Test func aLengthOutsideTheRangeMovesOnlyTheWayAsked() async {
    var standup = Standup.engineeringMock
    standup.duration = .seconds(60)
    let short = makeStore(standup)
    await short.send(.durationChanged(minutes: 0))
    await short.send(.durationChanged(minutes: 1))
    await short.send(.durationChanged(minutes: 2)) { $0.standup.duration = .seconds(5 * 60) }

    standup.duration = .seconds(60 * 60)
    let long = makeStore(standup)
    await long.send(.durationChanged(minutes: 61))
    await long.send(.durationChanged(minutes: 59)) { $0.standup.duration = .seconds(30 * 60) }
  }

  @Test func titleThemeAndFocusChange() async {
    let store = makeStore(.engineeringMock)

    await store.send(.titleChanged("Platform")) { $0.standup.title = "Platform" }
    await store.send(.themeChanged(.teal)) { $0.standup.theme = .teal }
    await store.send(.focusChanged(nil)) { $0.focus = nil }
  }

  @Test func validationStripsBlankAttendeesAndTrims() {
    var state = StandupForm.State(standup: .engineeringMock)
    state.standup.title = "  Platform  "
    state.standup.attendees[0].name = "  "
    state.standup.attendees[1].name = " Blob Jr "

    let standup = state.validatedStandup

    #expect(standup.title == "Platform")
    #expect(standup.attendees.map(\.name) == ["Blob Jr", "Blob Sr"])
    #expect(standup.attendees.map(\.id) == Standup.engineeringMock.attendees.dropFirst().map(\.id))
  }

  @Test func validationKeepsAtLeastOneAttendee() {
    var state = StandupForm.State(standup: .engineeringMock)
    for index in state.standup.attendees.indices {
      state.standup.attendees[index].name = "  "
    }

    let standup = state.validatedStandup

    #expect(standup.attendees.count == 1)
    #expect(standup.attendees.first?.id == Standup.engineeringMock.attendees.first?.id)
    #expect(standup.attendees.first?.name == "")
  }

  @Test func aStandupNeedsATitleToBeSaved() {
    var state = StandupForm.State(standup: .engineeringMock)
    #expect(state.isSaveable)
    state.standup.title = "   "
    #expect(!state.isSaveable)
    state.standup.title = ""
    #expect(!state.isSaveable)
  }
}
