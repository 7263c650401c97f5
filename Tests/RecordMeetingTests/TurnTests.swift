import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import RecordMeeting
import StandupForm
import Testing

/// Turns start on the exact second, and an ended meeting stays ended.
@MainActor
struct TurnTests {
  /// A standup of `attendees` people meeting for `minutes`.
  static func standup(minutes: Int, attendees: Int) -> Standup {
    Standup(
      id: Standup.ID(UUID(0)),
      attendees: IdentifiedArray(
        uniqueElements: (0..<attendees).map { Attendee(id: Attendee.ID(UUID($0 + 1))) }
      ),
      duration: .seconds(minutes * 60)
    )
  }

  /// Speaker `speaker` of `attendees` starts at second ceil(speaker × duration / attendees).
  static func firstSecond(of speaker: Int, minutes: Int, attendees: Int) -> Int {
    let numerator = speaker * minutes * 60
    return (numerator + attendees - 1) / attendees
  }

  @Test func everyTurnStartsOnItsExactSecond() {
    // NB: Built once, so that the sweep costs ticks, not body builds.
    let reducer = CombineReducers { RecordMeeting() }
    var failures: [String] = []
    withDependencies {
      $0.soundClient.playSpeakerChange = {}
    } operation: {
      for minutes in StandupForm.State.minutes {
        for attendees in 1...30 {
          for speaker in 1..<attendees {
            let start = Self.firstSecond(of: speaker, minutes: minutes, attendees: attendees)
            var state = RecordMeeting.State(
              secondsElapsed: start - 2,
              speakerIndex: speaker - 1,
              standup: Self.standup(minutes: minutes, attendees: attendees)
            )
            _ = reducer.reduce(into: &state, action: .timerTick)
            let before = state.speakerIndex
            _ = reducer.reduce(into: &state, action: .timerTick)
            guard before == speaker - 1, state.speakerIndex == speaker else {
              failures.append(
                "\(minutes) min, \(attendees) people: speaker \(speaker) at \(start) s was "
                  + "\(before) at \(start - 1) s and \(state.speakerIndex) at \(start) s"
              )
              continue
            }
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }

  // NB: The issue counts speakers from 1: "speaker 8" of 14 is index 7.
  @Test(arguments: [(11, 14, 7, 330), (5, 18, 15, 250)])
  func theBellRingsOnTheBoundary(
    minutes: Int,
    attendees: Int,
    speaker: Int,
    second: Int
  ) async {
    #expect(Self.firstSecond(of: speaker, minutes: minutes, attendees: attendees) == second)
    let bells = LockIsolated(0)
    let store = Store(
      initialState: RecordMeeting.State(
        secondsElapsed: second - 2,
        speakerIndex: speaker - 1,
        standup: Self.standup(minutes: minutes, attendees: attendees)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.soundClient.playSpeakerChange = { bells.withValue { $0 += 1 } }
    }

    await store.send(.timerTick).finish()
    #expect(store.secondsElapsed == second - 1)
    #expect(store.speakerIndex == speaker - 1)
    #expect(bells.value == 0)
    await store.send(.timerTick).finish()
    #expect(store.secondsElapsed == second)
    #expect(store.speakerIndex == speaker)
    #expect(bells.value == 1)
  }

  @Test func nextSpeakerJumpsToTheExactFirstSecondOfTheTurn() {
    let store = Store(
      initialState: RecordMeeting.State(standup: Self.standup(minutes: 5, attendees: 18))
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.soundClient.playSpeakerChange = {}
    }
    for speaker in 1..<18 {
      store.send(.nextButtonTapped)
      #expect(store.speakerIndex == speaker)
      #expect(
        store.secondsElapsed == Self.firstSecond(of: speaker, minutes: 5, attendees: 18)
      )
    }
  }

  @Test func anEndedMeetingIgnoresItsButtonsAndTimer() async {
    let sounds = LockIsolated(0)
    let store = Store(
      initialState: RecordMeeting.State(
        isEnded: true,
        standup: Self.standup(minutes: 5, attendees: 3)
      )
    ) {
      RecordMeeting()
    } withDependencies: {
      $0.soundClient.playSpeakerChange = { sounds.withValue { $0 += 1 } }
    }
    let before = store.state

    await store.send(.nextButtonTapped).finish()
    await store.send(.endMeetingButtonTapped).finish()
    await store.send(.timerTick).finish()
    await store.send(.speechFailed).finish()

    #expect(store.state == before)
    #expect(sounds.value == 0)
  }
}
