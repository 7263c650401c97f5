import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import SpeechClient
import StandupDetail
import Testing

@MainActor
struct StandupDetailTests {
  func makeStore(
    standup: Standup = .mock,
    speech: SpeechAuthorizationStatus = .authorized
  ) -> TestStore<StandupDetail.State, StandupDetail.Action> {
    TestStore(initialState: StandupDetail.State(standup: standup)) {
      StandupDetail()
    } withDependencies: {
      $0.speechClient.authorizationStatus = { speech }
      $0.uuid = .incrementing
    }
  }

  @Test func editingAsksTheParent() async {
    let store = makeStore()

    await store.send(.editButtonTapped)
    await store.receive(\.delegate.editStandup, .mock)
  }

  @Test func deletingAsksThenTellsTheParentWhichClosesTheScreen() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteStandup }
    await store.send(\.alert.presented.confirmDeletion) { $0.alert = nil }
    await store.receive(\.delegate.deleteStandup, Standup.mock.id)
    #expect(!store.isDismissed, "the parent closes the screen of a deleted standup")
  }

  @Test func cancellingADeletionKeepsTheStandup() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteStandup }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(!store.isDismissed)
  }

  @Test func deletingAPastMeetingAsksThenUpdatesTheStandup() async {
    let store = makeStore()
    let meeting = Standup.mock.meetings[0].id
    var updated = Standup.mock
    updated.meetings = []

    await store.send(.deleteMeetings(atOffsets: [0])) { $0.alert = .deleteMeetings([meeting]) }
    await store.send(\.alert.presented.confirmMeetingDeletion, [meeting]) {
      $0.alert = nil
      $0.standup = updated
    }
    await store.receive(\.delegate.standupUpdated, updated)
    await store.send(.deleteMeetings(atOffsets: [3]))
  }

  @Test func cancellingAPastMeetingsDeletionKeepsIt() async {
    let store = makeStore()
    let meeting = Standup.mock.meetings[0].id

    await store.send(.deleteMeetings(atOffsets: [0])) { $0.alert = .deleteMeetings([meeting]) }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(store.state.standup == .mock)
  }

  @Test(arguments: [SpeechAuthorizationStatus.notDetermined, .authorized])
  func startingAMeetingWhenSpeechMayBeUsed(status: SpeechAuthorizationStatus) async {
    let store = makeStore(speech: status)

    await store.send(.startMeetingButtonTapped)
    await store.receive(\.delegate.startMeeting, .mock)
  }

  @Test(arguments: [
    (
      SpeechAuthorizationStatus.denied,
      AlertState<StandupDetail.Action.Alert>.speechRecognitionDenied
    ),
    (.restricted, .speechRecognitionRestricted),
  ])
  func startingAMeetingWhenSpeechIsUnavailableAsksFirst(
    status: SpeechAuthorizationStatus,
    alert: AlertState<StandupDetail.Action.Alert>
  ) async {
    let store = makeStore(speech: status)

    await store.send(.startMeetingButtonTapped) {
      $0.alert = alert
    }
    await store.send(\.alert.presented.continueWithoutRecording) {
      $0.alert = nil
    }
    await store.receive(\.delegate.startMeeting, .mock)

    await store.send(.startMeetingButtonTapped) {
      $0.alert = alert
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func tappingAMeetingTellsTheParent() async {
    let store = makeStore()

    await store.send(.meetingTapped(id: Standup.mock.meetings[0].id))
    await store.receive(\.delegate.meetingTapped, Standup.mock.meetings[0].id)
  }
}
