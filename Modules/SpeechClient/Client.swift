public import Dependencies
public import DependenciesMacros

/// Transcribes what is said during a meeting.
///
/// The recorder asks for authorization before a meeting and, when it is granted, starts a
/// transcription whose results replace the meeting's transcript as they arrive.
///
/// ```swift
/// @Dependency(\.speechClient.startTranscription) var startTranscription
///
/// for try await result in await startTranscription() {
///   await send(.speechResult(result.transcript))
/// }
/// ```
@DependencyClient
public struct SpeechClient: Sendable {
  /// Whether the app may transcribe speech, without asking.
  public var authorizationStatus: @Sendable () -> SpeechAuthorizationStatus = { .notDetermined }

  /// Asks for permission to transcribe speech, and returns the answer.
  public var requestAuthorization: @Sendable () async -> SpeechAuthorizationStatus = {
    .notDetermined
  }

  /// Starts transcribing. Each result holds the whole transcript so far; the stream ends with
  /// an error if recognition fails.
  public var startTranscription:
    @Sendable () async -> AsyncThrowingStream<TranscriptionResult, any Error> = { .finished() }
}

/// Whether speech may be transcribed.
public enum SpeechAuthorizationStatus: Equatable, Sendable {
  /// Nobody has been asked yet.
  case notDetermined
  /// The user said no.
  case denied
  /// The device does not allow it (parental controls, or no recogniser at all).
  case restricted
  /// The user said yes.
  case authorized
}

/// A transcription so far.
public struct TranscriptionResult: Equatable, Sendable {
  /// Everything transcribed since the transcription started.
  public var transcript: String

  /// Whether this is the last result.
  public var isFinal: Bool

  /// Creates a result.
  public init(transcript: String, isFinal: Bool) {
    self.transcript = transcript
    self.isFinal = isFinal
  }
}

extension DependencyValues {
  /// Transcribes speech during meetings. See ``SpeechClient``.
  public var speechClient: SpeechClient {
    get { self[SpeechClient.self] }
    set { self[SpeechClient.self] = newValue }
  }
}
