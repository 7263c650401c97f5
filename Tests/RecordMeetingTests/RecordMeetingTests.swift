import Clocks
import Composable
import ComposableTestSupport
import ConcurrencyExtras
import Dependencies
import Foundation
import Models
import RecordMeeting
import SpeechClient
import Testing

@MainActor
struct RecordMeetingTests {
  let clock = TestClock()
  let sounds = LockIsolated(0)

  /// Three attendees, two seconds each.
  static let standup = Standup(
    id: Standup.ID(UUID(0)),
    attendees: [
      Attendee(id: Attendee.ID(UUID(1)), name: "Blob"),
      Attendee(id: Attendee.ID(UUID(2)), name: "Blob Jr"),
      Attendee(id: Attendee.ID(UUID(3)), name: "Blob Sr"),
    ],
    duration: .seconds(6),
    title: "Engineering"
  )

  func makeStore(
    standup: Standup = Self.standup,
    speech: SpeechAuthorizationStatus = .denied,
    transcription: AsyncThrowingStream<TranscriptionResult, any Error> = .finished()
  ) -> TestStore<RecordMeeting.State, RecordMeeting.Action> {
    TestStore(initialState: RecordMeeting.State(standup: standup)) {
      RecordMeeting()
    } withDependencies: { [clock, sounds] in
      $0.continuousClock = clock
      $0.soundClient.playSpeakerChange = { sounds.withValue { $0 += 1 } }
      $0.speechClient.authorizationStatus = { speech }
      $0.speechClient.startTranscription = { transcription }
    }
  }

  @Test func theTimerRunsThroughTheWholeMeeting() async {
    let store = makeStore()

    await store.send(.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    #expect(store.state.durationRemaining == .seconds(5))
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 2
      $0.speakerIndex = 1
    }
    #expect(sounds.value == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 3 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 4
      $0.speakerIndex = 2
    }
    #expect(sounds.value == 2)
    #expect(store.state.progress == 4.0 / 6.0)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 5 }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 6
      $0.isEnded = true
    }
    await store.receive(\.delegate.save, "")
    #expect(!store.isDismissed, "the parent closes a meeting it keeps")
    #expect(store.state.durationRemaining == .zero)
    #expect(sounds.value == 2)
  }

  @Test func speechResultsReplaceTheTranscript() async {
    let (transcription, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>
      .makeStream()
    let store = makeStore(speech: .authorized, transcription: transcription)

    let task = await store.send(.onTask)
    continuation.yield(TranscriptionResult(transcript: "I finished", isFinal: false))
    await store.receive(\.speechResult, "I finished") { $0.transcript = "I finished" }
    continuation.yield(TranscriptionResult(transcript: "I finished the form.", isFinal: true))
    await store.receive(\.speechResult, "I finished the form.") {
      $0.transcript = "I finished the form."
    }
    await task.cancel()
  }

  @Test func endingEarlyAndSavingKeepsTheMeeting() async {
    let store = makeStore()

    await store.send(.onTask)
    await store.send(.endMeetingButtonTapped) { $0.alert = .endMeeting(isDiscardable: true) }
    await store.send(\.alert.presented.confirmSave) {
      $0.alert = nil
      $0.isEnded = true
    }
    await store.receive(\.delegate.save, "")
    #expect(!store.isDismissed, "the parent closes a meeting it keeps")
  }

  @Test func endingEarlyAndDiscardingDropsTheMeeting() async {
    let store = makeStore()

    await store.send(.onTask)
    await store.send(.endMeetingButtonTapped) { $0.alert = .endMeeting(isDiscardable: true) }
    await store.send(\.alert.presented.confirmDiscard) {
      $0.alert = nil
      $0.isEnded = true
    }
    #expect(store.isDismissed)
  }

  @Test func nextSpeakerGoesToTheEndWithoutDiscard() async {
    let store = makeStore()

    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 1
      $0.secondsElapsed = 2
    }
    await store.send(.nextButtonTapped) {
      $0.speakerIndex = 2
      $0.secondsElapsed = 4
    }
    #expect(sounds.value == 2)
    await store.send(.nextButtonTapped) { $0.alert = .endMeeting(isDiscardable: false) }
    #expect(store.state.alert?.buttons.map(\.label) == ["Save and end", "Resume"])
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func aSpeechFailureCanBeContinued() async {
    struct Failure: Error {}
    let (transcription, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>
      .makeStream()
    let store = makeStore(speech: .authorized, transcription: transcription)

    let task = await store.send(.onTask)
    continuation.yield(TranscriptionResult(transcript: "Hello", isFinal: false))
    await store.receive(\.speechResult, "Hello") { $0.transcript = "Hello" }
    continuation.finish(throwing: Failure())
    await store.receive(\.speechFailed) {
      $0.transcript = "Hello ❌"
      $0.alert = .speechRecognizerFailed
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    await task.cancel()
  }

  @Test func aSpeechFailureCanDiscardTheMeeting() async {
    struct Failure: Error {}
    let (transcription, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>
      .makeStream()
    let store = makeStore(speech: .authorized, transcription: transcription)

    await store.send(.onTask)
    continuation.finish(throwing: Failure())
    await store.receive(\.speechFailed) { $0.alert = .speechRecognizerFailed }
    await store.send(\.alert.presented.confirmDiscard) {
      $0.alert = nil
      $0.isEnded = true
    }
    #expect(store.isDismissed)
  }

  @Test func ticksAreIgnoredWhileAnAlertIsUp() async {
    let store = makeStore()

    let task = await store.send(.onTask)
    await store.send(.endMeetingButtonTapped) { $0.alert = .endMeeting(isDiscardable: true) }
    for _ in 1...3 {
      await clock.advance(by: .seconds(1))
      await store.receive(\.timerTick)
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    await task.cancel()
  }

  @Test func moreAttendeesThanSecondsStillEnds() async {
    var standup = Standup.mock
    standup.duration = .seconds(3)
    let store = makeStore(standup: standup)

    await store.send(.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 1
      $0.speakerIndex = 2
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 2
      $0.speakerIndex = 4
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 3
      $0.isEnded = true
    }
    await store.receive(\.delegate.save, "")
    #expect(!store.isDismissed, "the parent closes a meeting it keeps")
    #expect(sounds.value == 2)
  }

  @Test func startingAgainReplacesTheTimer() async {
    let store = makeStore()

    await store.send(.onTask)
    let task = await store.send(.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) { $0.secondsElapsed = 1 }
    await task.cancel()
    await store.finish()
  }

  @Test func aZeroLengthMeetingEndsAtTheFirstTick() async {
    let standup = Standup(id: Standup.ID(UUID(0)), duration: .zero, title: "Empty")
    let store = makeStore(standup: standup)

    await store.send(.onTask)
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTick) {
      $0.secondsElapsed = 1
      $0.isEnded = true
    }
    await store.receive(\.delegate.save, "")
    #expect(!store.isDismissed, "the parent closes a meeting it keeps")
    #expect(store.state.progress == 1)
  }

  @Test func cancellingTheTaskEndsEveryEffect() async {
    let (transcription, _) = AsyncThrowingStream<TranscriptionResult, any Error>.makeStream()
    let store = makeStore(speech: .authorized, transcription: transcription)

    let task = await store.send(.onTask)
    #expect(store.effectRuntime.runningCount == 1)
    await task.cancel()
    await clock.advance(by: .seconds(5))
    await store.finish()
    #expect(store.effectRuntime.runningCount == 0)
    #expect(store.effectRuntime.cancellationKeyCount == 0)
  }
}
