public import CasePaths
import Clocks
public import Composable
import Dependencies
public import Models
import SoundClient
import SpeechClient

/// The meeting in progress: a one-second timer that moves from speaker to speaker, the
/// transcript so far, and ways to skip ahead or end early.
///
/// When time is up, or the user ends the meeting and keeps it, the screen hands the transcript
/// to its parent with `delegate(.save(transcript:))`, and the parent closes it; a discarded
/// meeting dismisses itself.
public struct RecordMeeting: Reducer {
  /// The meeting's progress.
  public struct State: Equatable, Sendable {
    /// The end-meeting or speech-failure alert; ticks are ignored while it is up.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// Whether the meeting is over and being saved or discarded. An ended meeting ignores its
    /// buttons and its timer.
    public var isEnded: Bool

    /// Whole seconds since the meeting started.
    public var secondsElapsed: Int

    /// The position of the current speaker among the attendees.
    public var speakerIndex: Int

    /// The standup being met.
    public var standup: Standup

    /// What was said so far.
    public var transcript: String

    /// Creates the screen's state.
    public init(
      alert: AlertState<Action.Alert>? = nil,
      isEnded: Bool = false,
      secondsElapsed: Int = 0,
      speakerIndex: Int = 0,
      standup: Standup,
      transcript: String = ""
    ) {
      self.alert = alert
      self.isEnded = isEnded
      self.secondsElapsed = secondsElapsed
      self.speakerIndex = speakerIndex
      self.standup = standup
      self.transcript = transcript
    }

    /// How long the meeting has run.
    public var durationElapsed: Duration {
      .seconds(secondsElapsed)
    }

    /// How long is left, never negative.
    public var durationRemaining: Duration {
      max(standup.duration - durationElapsed, .zero)
    }

    /// The part of the meeting that has passed, from 0 to 1.
    public var progress: Double {
      guard standup.duration > .zero else { return 1 }
      return min(durationElapsed / standup.duration, 1)
    }

    /// The number of turns: one per attendee, or a single turn when there are none.
    public var speakerCount: Int {
      max(standup.attendees.count, 1)
    }

    /// Whether the current speaker is the last.
    public var isLastSpeaker: Bool {
      speakerIndex >= speakerCount - 1
    }

    /// The speaker whose turn it is after `seconds`: the last one whose turn has started.
    func speakerIndex(after seconds: Int) -> Int {
      let milliseconds = durationInMilliseconds
      guard milliseconds > 0 else { return speakerCount - 1 }
      // NB: Speaker k has started once ceil(k × duration / speakers) ≤ seconds, which is
      // k ≤ seconds × speakers / duration; integers keep every boundary on its exact second.
      return min(
        Int(Int64(seconds) * 1000 * Int64(speakerCount) / milliseconds),
        speakerCount - 1
      )
    }

    /// The whole second at which `speaker`'s turn starts: ceil(speaker × duration / speakers).
    func firstSecond(of speaker: Int) -> Int {
      let numerator = Int64(speaker) * durationInMilliseconds
      let denominator = Int64(speakerCount) * 1000
      return Int((numerator + denominator - 1) / denominator)
    }

    /// The meeting's length in whole milliseconds, for arithmetic on turns.
    private var durationInMilliseconds: Int64 {
      let (seconds, attoseconds) = standup.duration.components
      return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
  }

  /// What happens during the meeting.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case endMeetingButtonTapped
    case nextButtonTapped
    case onTask
    case speechFailed
    case speechResult(String)
    case timerTick

    /// The buttons of the screen's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDiscard
      case confirmSave
    }

    /// What the screen asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Keep the meeting with this transcript.
      case save(transcript: String)
    }
  }

  enum CancelID { case meeting }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.soundClient.playSpeakerChange) var playSpeakerChange
  @Dependency(\.speechClient.authorizationStatus) var speechAuthorizationStatus
  @Dependency(\.speechClient.requestAuthorization) var requestSpeechAuthorization
  @Dependency(\.speechClient.startTranscription) var startTranscription

  /// Creates the screen's reducer.
  public init() {}

  /// Ticks, turns, the transcript and the ways to end the meeting.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDiscard)):
        guard !state.isEnded else { return .none }
        return end(&state, saving: false)

      case .alert(.presented(.confirmSave)):
        guard !state.isEnded else { return .none }
        return end(&state, saving: true)

      case .alert(.dismiss):
        return .none

      case .delegate:
        return .none

      case .endMeetingButtonTapped:
        guard !state.isEnded else { return .none }
        state.alert = .endMeeting(isDiscardable: true)
        return .none

      case .nextButtonTapped:
        guard !state.isEnded else { return .none }
        guard !state.isLastSpeaker else {
          state.alert = .endMeeting(isDiscardable: false)
          return .none
        }
        state.speakerIndex += 1
        state.secondsElapsed = state.firstSecond(of: state.speakerIndex)
        return playSpeakerChangeSound()

      case .onTask:
        return meeting().cancellable(id: CancelID.meeting, cancelInFlight: true)

      case .speechFailed:
        guard !state.isEnded else { return .none }
        if !state.transcript.isEmpty {
          state.transcript += " ❌"
        }
        state.alert = .speechRecognizerFailed
        return .none

      case .speechResult(let transcript):
        state.transcript = transcript
        return .none

      case .timerTick:
        guard state.alert == nil, !state.isEnded else { return .none }
        state.secondsElapsed += 1
        guard state.durationElapsed < state.standup.duration else {
          return end(&state, saving: true)
        }
        let speakerIndex = state.speakerIndex(after: state.secondsElapsed)
        guard speakerIndex != state.speakerIndex else { return .none }
        state.speakerIndex = speakerIndex
        return playSpeakerChangeSound()
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }

  /// The meeting's long-living work: a tick every second and, when allowed, transcription.
  private func meeting() -> Effect<Action> {
    .run {
      [clock, speechAuthorizationStatus, requestSpeechAuthorization, startTranscription] send in
      let authorization =
        speechAuthorizationStatus() == .notDetermined
        ? await requestSpeechAuthorization()
        : speechAuthorizationStatus()

      await withTaskGroup(of: Void.self) { group in
        if authorization == .authorized {
          group.addTask {
            do {
              for try await result in await startTranscription() {
                await send(.speechResult(result.transcript))
              }
            } catch is CancellationError {
            } catch {
              await send(.speechFailed)
            }
          }
        }
        group.addTask {
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTick)
          }
        }
      }
    }
  }

  /// Stops the meeting's work and, when `saving`, hands the transcript to the parent, which
  /// closes the screen; a discarded meeting closes it itself.
  private func end(_ state: inout State, saving: Bool) -> Effect<Action> {
    state.isEnded = true
    return .merge(
      .cancel(id: CancelID.meeting),
      saving
        ? .send(.delegate(.save(transcript: state.transcript)))
        : .run { [dismiss] _ in await dismiss() }
    )
  }

  private func playSpeakerChangeSound() -> Effect<Action> {
    .run { [playSpeakerChange] _ in await playSpeakerChange() }
  }
}

extension AlertState where Action == RecordMeeting.Action.Alert {
  /// Asks what to do with a meeting ended early; the last speaker's "next" offers no discard.
  public static func endMeeting(isDiscardable: Bool) -> Self {
    AlertState {
      TextState("End meeting?")
    } actions: {
      ButtonState(action: .confirmSave) {
        TextState("Save and end")
      }
      if isDiscardable {
        ButtonState(role: .destructive, action: .confirmDiscard) {
          TextState("Discard")
        }
      }
      ButtonState(role: .cancel) {
        TextState("Resume")
      }
    } message: {
      TextState("You are ending the meeting early. What would you like to do?")
    }
  }

  /// Explains that transcription stopped, and offers to go on without it.
  public static var speechRecognizerFailed: Self {
    AlertState {
      TextState("Speech recognition failed")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("Continue meeting")
      }
      ButtonState(role: .destructive, action: .confirmDiscard) {
        TextState("Discard meeting")
      }
    } message: {
      TextState(
        """
        The speech recognizer has failed, so the rest of the meeting will not be transcribed. \
        What would you like to do?
        """
      )
    }
  }
}
