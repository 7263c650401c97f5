import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import SpeechClient
import StandupDetail
import StandupForm
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

  @Test func editingAndTappingDoneUpdatesTheStandup() async {
    let store = makeStore()
    var edited = Standup.mock
    edited.title = "Design Review"

    await store.send(.editButtonTapped) {
      $0.destination = .edit(StandupForm.State(standup: .mock))
    }
    await store.send(\.destination.presented.edit.titleChanged, "Design Review") {
      $0.destination = .edit(StandupForm.State(standup: edited))
    }
    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.standup = edited
    }
    await store.receive(\.delegate.standupUpdated, edited)
  }

  @Test func cancellingAnEditChangesNothing() async {
    let store = makeStore()

    await store.send(.editButtonTapped) {
      $0.destination = .edit(StandupForm.State(standup: .mock))
    }
    await store.send(\.destination.presented.edit.titleChanged, "Scrapped") {
      var standup = Standup.mock
      standup.title = "Scrapped"
      $0.destination = .edit(StandupForm.State(standup: standup))
    }
    await store.send(.cancelEditButtonTapped) { $0.destination = nil }
    #expect(store.state.standup == .mock)
  }

  @Test func editingValidatesLikeAdding() async {
    var form = StandupForm.State(standup: .engineeringMock)
    form.standup.attendees[1].name = "  "
    form.standup.title = "Platform "
    let store = TestStore(
      initialState: StandupDetail.State(destination: .edit(form), standup: .engineeringMock)
    ) {
      StandupDetail()
    }
    var validated = Standup.engineeringMock
    validated.title = "Platform"
    validated.attendees.remove(at: 1)

    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.standup = validated
    }
    await store.receive(\.delegate.standupUpdated, validated)
  }

  @Test func anUntitledEditStaysOpen() async {
    var form = StandupForm.State(focus: nil, standup: .engineeringMock)
    form.standup.title = " "
    let store = TestStore(
      initialState: StandupDetail.State(destination: .edit(form), standup: .engineeringMock)
    ) {
      StandupDetail()
    }

    await store.send(.doneEditingButtonTapped) {
      form.focus = .title
      $0.destination = .edit(form)
    }
  }

  @Test func deletingAsksThenTellsTheParentAndDismisses() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.destination = .alert(.deleteStandup) }
    await store.send(\.destination.presented.alert.confirmDeletion) { $0.destination = nil }
    await store.receive(\.delegate.deleteStandup, Standup.mock.id)
    #expect(store.isDismissed)
  }

  @Test func cancellingADeletionKeepsTheStandup() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.destination = .alert(.deleteStandup) }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    #expect(!store.isDismissed)
  }

  @Test func deletingAPastMeetingUpdatesTheStandup() async {
    let store = makeStore()
    var updated = Standup.mock
    updated.meetings = []

    await store.send(.deleteMeetings(atOffsets: [0])) { $0.standup = updated }
    await store.receive(\.delegate.standupUpdated, updated)
    await store.send(.deleteMeetings(atOffsets: [3]))
  }

  @Test(arguments: [SpeechAuthorizationStatus.notDetermined, .authorized])
  func startingAMeetingWhenSpeechMayBeUsed(status: SpeechAuthorizationStatus) async {
    let store = makeStore(speech: status)

    await store.send(.startMeetingButtonTapped)
    await store.receive(\.delegate.startMeeting, .mock)
  }

  @Test func startingAMeetingWhenSpeechIsDeniedAsksFirst() async {
    let store = makeStore(speech: .denied)

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionDenied)
    }
    await store.send(\.destination.presented.alert.continueWithoutRecording) {
      $0.destination = nil
    }
    await store.receive(\.delegate.startMeeting, .mock)

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionDenied)
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func startingAMeetingWhenSpeechIsRestrictedAsksFirst() async {
    let store = makeStore(speech: .restricted)

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionRestricted)
    }
    await store.send(\.destination.presented.alert.continueWithoutRecording) {
      $0.destination = nil
    }
    await store.receive(\.delegate.startMeeting, .mock)

    await store.send(.startMeetingButtonTapped) {
      $0.destination = .alert(.speechRecognitionRestricted)
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func tappingAMeetingTellsTheParent() async {
    let store = makeStore()

    await store.send(.meetingTapped(id: Standup.mock.meetings[0].id))
    await store.receive(\.delegate.meetingTapped, Standup.mock.meetings[0].id)
  }
}
