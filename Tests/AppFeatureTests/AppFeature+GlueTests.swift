import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import MeetingFeature
import Models
import RecordMeeting
import SpeechClient
import StandupDetail
import StandupForm
import StandupsList
import Testing

/// The list's and the detail's requests, carried out by the glue.
extension AppFeatureTests {
  @Test func anEditInTheDetailReachesTheListAndIsAnnounced() async throws {
    let store = makeStore(.loaded([.mock]))
    var edited = Standup.mock
    edited.title = "Design Review"

    await store.send(.list(.standupTapped(id: Standup.mock.id)))
    await store.receive(\.list.delegate.standupTapped) {
      $0.path.append(.detail(StandupDetail.State(standup: .mock)))
    }
    await store.send(\.path[id: 0].detail.editButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.editStandup, .mock) {
      $0.destination = .edit(StandupForm.State(standup: .mock))
    }
    await store.send(\.destination.presented.edit.titleChanged, "Design Review") {
      $0.destination?.modify(\.edit) { $0.standup.title = "Design Review" }
    }
    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.path[id: 0, case: \.detail]?.standup = edited
      $0.list.standups[id: edited.id] = edited
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(edited.id, StandupEdit(title: "Design Review", seen: .init(title: "Design"))))
    await expectNothingLeftRunning(store)
  }

  @Test func deletingFromTheDetailShrinksTheListAndTheGlueClosesTheScreen() async {
    let store = makeStore(
      .loaded(
        [.mock, .engineeringMock],
        path: StackState([.detail(StandupDetail.State(standup: .mock))])
      )
    )

    await store.send(\.path[id: 0].detail.deleteButtonTapped) {
      $0.path[id: 0, case: \.detail]?.alert = .deleteStandup
    }
    await store.send(\.path[id: 0].detail.alert.presented.confirmDeletion) {
      $0.path[id: 0, case: \.detail]?.alert = nil
    }
    await store.receive(\.path[id: 0].detail.delegate.deleteStandup, Standup.mock.id) {
      $0.list.standups = [.engineeringMock]
      $0.path = StackState()
    }
    await store.receive(\.delegate.standupsChanged, .deleted(Standup.mock.id))
    await expectNothingLeftRunning(store)
  }

  @Test func deletingAPastMeetingRemovesItEverywhereAndTheGlueClosesItsScreen() async {
    let a = Standup.mock
    let store = makeStore(
      .loaded(
        [a],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .meeting(MeetingFeature.State(meeting: a.meetings[0], standup: a)),
        ])
      )
    )
    var withoutMeeting = a
    withoutMeeting.meetings = []

    await store.send(\.path[id: 1].meeting.deleteButtonTapped) {
      $0.path[id: 1, case: \.meeting]?.alert = .deleteMeeting
    }
    await store.send(\.path[id: 1].meeting.alert.presented.confirmDeletion) {
      $0.path[id: 1, case: \.meeting]?.alert = nil
    }
    await store.receive(\.path[id: 1].meeting.delegate.deleteMeeting, a.meetings[0].id) {
      $0.path[id: 0, case: \.detail]?.standup = withoutMeeting
      $0.path.pop(from: 1)
      $0.list.standups = [withoutMeeting]
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(a.id, StandupEdit(meetingsRemoved: [a.meetings[0].id])))
    await expectNothingLeftRunning(store)
  }

  @Test func deletingAPastMeetingOnItsStandupsScreenClosesEveryScreenShowingIt() async {
    let a = Standup.mock
    let store = makeStore(
      .loaded(
        [a],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .meeting(MeetingFeature.State(meeting: a.meetings[0], standup: a)),
          .detail(StandupDetail.State(standup: a)),
        ])
      )
    )
    var withoutMeeting = a
    withoutMeeting.meetings = []

    await store.deleteMeeting(at: 0, onDetail: 2, leaving: withoutMeeting)
    await store.receive(\.path[id: 2].detail.delegate.standupUpdated, withoutMeeting) {
      $0.path[id: 0, case: \.detail]?.standup = withoutMeeting
      $0.path[id: 1] = nil
      $0.list.standups = [withoutMeeting]
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(a.id, StandupEdit(meetingsRemoved: [a.meetings[0].id])))
    #expect(store.state.path.ids == [0, 2])
  }

  @Test func tappingAPastMeetingPushesIt() async {
    let store = makeStore(
      .loaded([.mock], path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    )
    let meeting = Standup.mock.meetings[0]

    await store.send(\.path[id: 0].detail.meetingTapped, meeting.id)
    await store.receive(\.path[id: 0].detail.delegate.meetingTapped, meeting.id) {
      $0.path.append(.meeting(MeetingFeature.State(meeting: meeting, standup: .mock)))
    }
  }
}
