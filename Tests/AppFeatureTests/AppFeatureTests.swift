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

/// The glue between screens, through the root store.
@MainActor
struct AppFeatureTests {
  let clock = TestClock()
  nonisolated static let now = Date(timeIntervalSince1970: 1_800_000_000)

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

  @Test func aFullRecordingAddsTheMeetingToTheDetailAndTheList() async {
    var standup = Standup.mock
    standup.duration = .seconds(6)
    let store = makeStore(
      .loaded([standup], path: StackState([.detail(StandupDetail.State(standup: standup))])),
      speech: .notDetermined
    )
    var recorded = standup
    recorded.meetings.insert(
      Meeting(id: Meeting.ID(UUID(0)), date: Self.now, transcript: ""),
      at: 0
    )

    await store.send(\.path[id: 0].detail.startMeetingButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.startMeeting, standup) {
      $0.path.append(.record(RecordMeeting.State(standup: standup)))
    }
    await store.send(\.path[id: 1].record.onTask)
    for second in 1...5 {
      await clock.advance(by: .seconds(1))
      await store.receive(\.path[id: 1].record.timerTick) {
        $0.path[id: 1, case: \.record]?.secondsElapsed = second
        $0.path[id: 1, case: \.record]?.speakerIndex = second
      }
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 1].record.timerTick) {
      $0.path[id: 1, case: \.record]?.secondsElapsed = 6
      $0.path[id: 1, case: \.record]?.isEnded = true
    }
    await store.receive(\.path[id: 1].record.delegate.save, "") {
      $0.path.pop(from: 1)
      $0.path[id: 0, case: \.detail]?.standup = recorded
      $0.list.standups = [recorded]
    }
    await store.receive(
      \.delegate.standupsChanged, .meetingRecorded(recorded.meetings[0], standup: standup))
    await expectNothingLeftRunning(store)
  }

  @Test func aSaveBelowAMeetingScreenLandsInTheStandupOfTheRecording() async {
    let a = Standup.mock
    let store = makeStore(
      .loaded(
        [a, .engineeringMock],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .meeting(MeetingFeature.State(meeting: a.meetings[0], standup: a)),
          .record(RecordMeeting.State(standup: a)),
        ])
      )
    )
    let recorded = a.adding(meetingWithTranscript: "", id: 0)

    await endAndSaveRecording(2, in: store) {
      $0.path[id: 0, case: \.detail]?.standup = recorded
      $0.path[id: 1, case: \.meeting]?.standup = recorded
      $0.list.standups[id: a.id] = recorded
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func aSaveAboveTwoDetailsLandsInTheMatchingOne() async {
    let a = Standup.mock
    let b = Standup.engineeringMock
    let store = makeStore(
      .loaded(
        [a, b],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .detail(StandupDetail.State(standup: b)),
          .record(RecordMeeting.State(standup: b)),
        ])
      )
    )
    let recorded = b.adding(meetingWithTranscript: "", id: 0)

    await endAndSaveRecording(2, in: store) {
      $0.path[id: 1, case: \.detail]?.standup = recorded
      $0.list.standups[id: b.id] = recorded
    }
    #expect(store.state.path[id: 0, case: \.detail]?.standup == a)
  }

  @Test func aDeepLinkedRecordingSavesIntoItsDetail() async {
    let a = Standup.engineeringMock
    let store = makeStore(
      .loaded(
        [.mock, a],
        path: StackState([
          .detail(StandupDetail.State(standup: a)),
          .record(RecordMeeting.State(standup: a)),
        ])
      )
    )
    let recorded = a.adding(meetingWithTranscript: "", id: 0)

    await endAndSaveRecording(1, in: store) {
      $0.path[id: 0, case: \.detail]?.standup = recorded
      $0.list.standups[id: a.id] = recorded
    }
  }

  @Test func aRecordingWithoutItsDetailStillUpdatesTheList() async {
    let a = Standup.productMock
    let store = makeStore(
      .loaded([a], path: StackState([.record(RecordMeeting.State(standup: a))]))
    )
    let recorded = a.adding(meetingWithTranscript: "", id: 0)

    await endAndSaveRecording(0, in: store) {
      $0.list.standups[id: a.id] = recorded
    }
    #expect(store.state.path.isEmpty)
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

  @Test func anEditReachesEveryScreenShowingTheStandup() async {
    let store = makeStore(
      .loaded(
        [.mock, .engineeringMock],
        path: StackState([
          .detail(StandupDetail.State(standup: .mock)),
          .detail(StandupDetail.State(standup: .engineeringMock)),
          .detail(StandupDetail.State(standup: .mock)),
        ])
      )
    )
    var edited = Standup.mock
    edited.meetings = []

    await store.deleteMeeting(at: 0, onDetail: 2, leaving: edited)
    await store.receive(\.path[id: 2].detail.delegate.standupUpdated, edited) {
      $0.path[id: 0, case: \.detail]?.standup = edited
      $0.list.standups[id: edited.id] = edited
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(edited.id, StandupEdit(meetingsRemoved: [Standup.mock.meetings[0].id])))
    #expect(store.state.path[id: 1, case: \.detail]?.standup == .engineeringMock)
  }

  // MARK: - Helpers

  func makeStore(
    _ state: @autoclosure () -> AppFeature.State,
    speech: SpeechAuthorizationStatus = .denied
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.date.now = Self.now
      $0.uuid = .incrementing
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient.authorizationStatus = { speech }
      $0.speechClient.requestAuthorization = { .denied }
    }
  }

  /// Ends the recording on screen `id` early, keeping it, and checks that the glue pops it and
  /// adds the meeting as `update` describes.
  func endAndSaveRecording(
    _ id: StackElementID,
    in store: TestStore<AppFeature.State, AppFeature.Action>,
    update: @escaping (inout AppFeature.State) -> Void
  ) async {
    await store.send(\.path[id: id].record.endMeetingButtonTapped) {
      $0.path[id: id, case: \.record]?.alert = .endMeeting(isDiscardable: true)
    }
    await store.send(\.path[id: id].record.alert.presented.confirmSave) {
      $0.path[id: id, case: \.record]?.alert = nil
      $0.path[id: id, case: \.record]?.isEnded = true
    }
    let recorder = store.state.path[id: id]?.standup
    await store.receive(\.path[id: id].record.delegate.save, "") {
      $0.path.pop(from: id)
      update(&$0)
    }
    let meeting = Meeting(id: Meeting.ID(UUID(0)), date: Self.now, transcript: "")
    if let recorder {
      await store.receive(
        \.delegate.standupsChanged, .meetingRecorded(meeting, standup: recorder))
    }
    await expectNothingLeftRunning(store)
  }
}
