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

/// A recorded meeting lands in the standup it was recorded for, wherever its screens are.
extension AppFeatureTests {
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
}
