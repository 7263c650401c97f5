import ComposableTestSupport
import Models
import RecordMeeting
import SpeechClient
import Testing

// The recorder's timer is long-living by design. These tests are written as Point-Free writes
// SyncUps' recorder tests (`timer`, `nextSpeaker`, `endMeetingSave`) and as the app's integration
// tests are: non-exhaustive, checking a few steps and leaving the timer running. As with the
// Composable Architecture, skipping what was received does not wait for the timer, and `finish()`
// gives it a second and lets it run: each test ends in about a second, with no issue.
extension RecordMeetingTests {
  @Test func timer() async {
    let store = makeStore()
    store.exhaustivity = .off

    await store.send(.onTask)
    await clock.advance(by: .seconds(3))
    await store.skipReceivedActions()
    #expect(store.state.secondsElapsed == 3)
    #expect(store.state.speakerIndex == 1)
    #expect(sounds.value == 1)
    await store.finish()
  }

  @Test func nextSpeaker() async {
    let store = makeStore()
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
    }
    await clock.advance(by: .seconds(1))
    await store.skipReceivedActions()
    #expect(store.state.secondsElapsed == 3)
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
    }
    await store.send(.nextButtonTapped) { $0.alert = .endMeeting(isDiscardable: false) }
    await store.finish()
  }

  @Test func endMeetingSave() async {
    let store = makeStore()
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(.endMeetingButtonTapped) { $0.alert = .endMeeting(isDiscardable: true) }
    await clock.advance(by: .seconds(3))
    await store.skipReceivedActions()
    #expect(store.state.secondsElapsed == 0, "no tick counts under the alert")
    await store.finish()
    await store.send(\.alert.presented.confirmSave) {
      $0.alert = nil
      $0.isEnded = true
    }
    await store.receive(\.delegate.save, "")
  }

  @Test func aSpeechFailureUnderTheEndMeetingAlertWithTheTimerRunning() async {
    struct Failure: Error {}
    let (transcription, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>
      .makeStream()
    let store = makeStore(speech: .authorized, transcription: transcription)
    store.exhaustivity = .off

    await store.send(.onTask)
    await store.send(.endMeetingButtonTapped) { $0.alert = .endMeeting(isDiscardable: true) }
    continuation.finish(throwing: Failure())
    await store.receive(\.speechFailed) { $0.alert = .speechRecognizerFailed }
    await clock.advance(by: .seconds(2))
    await store.skipReceivedActions()
    #expect(store.state.secondsElapsed == 0)
    await store.finish()
  }
}
