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

/// The glue between screens, through the root store. The tests sit in files named for the file of
/// AppFeature each exercises; the store and helpers they share are here.
@MainActor
struct AppFeatureTests {
  let clock = TestClock()
  nonisolated static let now = Date(timeIntervalSince1970: 1_800_000_000)

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
