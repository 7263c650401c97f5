import ConcurrencyExtras
public import SpeechClient

/// The transcript of a meeting, typed: Linux has no speech recogniser, so the lines typed on the
/// recorder are what was said.
///
/// ``client`` is a live `SpeechClient` that reports speech recognition as authorised and streams
/// the transcript as it is typed, so the meeting's own speech path runs unchanged: each result
/// holds the whole transcript so far, one line per submission, then the line still being typed.
/// That last line is a partial result, as a recogniser reports the words it is still hearing: a
/// meeting that ends at any moment (its time is up, the user saves it, the app is stopped) keeps
/// what was typed. Each meeting starts a new transcript; a line submitted when no meeting is
/// open is refused, so the screen keeps it.
///
/// A meeting is open from the moment its screen is (``openMeeting()``), before it starts
/// listening: the meeting starts transcription in an effect, which runs after the keys typed
/// ahead of the screen (`s`, then a line and ⏎, in one burst) have been handled. Those lines
/// wait in the transcript and are the first result the meeting hears.
///
/// ```swift
/// let transcript = TypedTranscript()
/// let store = Store(initialState: AppFeature.State()) { AppFeature() } withDependencies: {
///   $0.speechClient = transcript.client
/// }
/// transcript.openMeeting()
/// transcript.setLineInProgress("Blob: shipped")
/// transcript.submit("Blob: shipped the release")
/// ```
public final class TypedTranscript: Sendable {
  private struct Meeting {
    var lines: [String] = []
    var lineInProgress = ""
    /// Where results go once the meeting listens; `nil` while it is open but not yet listening.
    var continuation: Continuation?
    var number: Int

    /// The submitted lines, then the line in progress when there is one.
    var transcript: String {
      (lineInProgress.isEmpty ? lines : lines + [lineInProgress]).joined(separator: "\n")
    }
  }

  private struct Listening {
    var meeting: Meeting?
    var meetingsStarted = 0
  }

  private typealias Continuation = AsyncThrowingStream<TranscriptionResult, any Error>.Continuation

  private let listening = LockIsolated(Listening())

  /// Creates a transcript with no meeting listening.
  public init() {}

  /// A speech client that transcribes the lines submitted to this transcript.
  public var client: SpeechClient {
    SpeechClient(
      authorizationStatus: { .authorized },
      requestAuthorization: { .authorized },
      startTranscription: { [self] in startMeeting() }
    )
  }

  /// Whether a meeting is listening for lines: it has started transcription and not stopped.
  public var isListening: Bool {
    listening.value.meeting?.continuation != nil
  }

  /// The whole transcript of the meeting open, the line in progress included; `nil` when no
  /// meeting is open.
  public var currentTranscript: String? {
    listening.value.meeting?.transcript
  }

  /// Opens a new meeting, ending the one before: the lines typed from now on are its transcript,
  /// whether or not it listens yet.
  ///
  /// Call it when a meeting's screen appears, before the meeting starts transcription.
  public func openMeeting() {
    let previous = listening.withValue { Self.replaceMeeting(in: &$0, listeningWith: nil).previous }
    // NB: Finishing runs that stream's termination handler, so it happens outside the lock.
    previous?.finish()
  }

  /// Adds a line to the transcript of the meeting open, in place of the line in progress.
  ///
  /// - Parameter line: What was said.
  /// - Returns: Whether a meeting heard it.
  @discardableResult
  public func submit(_ line: String) -> Bool {
    update { meeting in
      meeting.lines.append(line)
      meeting.lineInProgress = ""
      return true
    }
  }

  /// Sets the line still being typed, which ends the transcript until it is submitted.
  ///
  /// - Parameter line: What is typed so far.
  public func setLineInProgress(_ line: String) {
    _ = update { meeting in
      guard meeting.lineInProgress != line else { return false }
      meeting.lineInProgress = line
      return true
    }
  }

  /// Changes the meeting listening and, when `change` says the transcript changed, sends it.
  private func update(_ change: @Sendable (inout Meeting) -> Bool) -> Bool {
    listening.withValue { listening in
      guard var meeting = listening.meeting else { return false }
      if change(&meeting) {
        meeting.continuation?.yield(
          TranscriptionResult(transcript: meeting.transcript, isFinal: false))
      }
      listening.meeting = meeting
      return true
    }
  }

  /// Starts listening: to the meeting opened and not yet listening, whose lines so far are the
  /// first result, or else to a new meeting, which ends the one before.
  private func startMeeting() -> AsyncThrowingStream<TranscriptionResult, any Error> {
    // NB: A meeting whose screen closed before its effect ran is cancelled by then: it must not
    // take the meeting opened since, whose lines belong to the screen in front of the user.
    guard !Task.isCancelled else {
      return AsyncThrowingStream { $0.finish() }
    }
    // NB: Each result holds the whole transcript so far, so only the newest matters: keys that
    // arrive faster than the meeting reads its results cost one result, not one each.
    let (stream, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>.makeStream(
      bufferingPolicy: .bufferingNewest(1))
    let (number, previous) = listening.withValue { listening -> (Int, Continuation?) in
      if var opened = listening.meeting, opened.continuation == nil {
        opened.continuation = continuation
        listening.meeting = opened
        if !opened.transcript.isEmpty {
          continuation.yield(TranscriptionResult(transcript: opened.transcript, isFinal: false))
        }
        return (opened.number, nil)
      }
      return Self.replaceMeeting(in: &listening, listeningWith: continuation)
    }
    // NB: One meeting at a time: a new one ends the transcript of the one before. Finishing
    // runs that stream's termination handler, so it happens outside the lock.
    previous?.finish()
    continuation.onTermination = { [weak self] _ in
      self?.listening.withValue { listening in
        if listening.meeting?.number == number {
          listening.meeting = nil
        }
      }
    }
    return stream
  }

  /// Makes a new meeting the one open, listening through `continuation` if given; returns its
  /// number and the stream of the meeting it ends, which the caller finishes outside the lock.
  private static func replaceMeeting(
    in listening: inout Listening, listeningWith continuation: Continuation?
  ) -> (number: Int, previous: Continuation?) {
    let previous = listening.meeting?.continuation
    listening.meetingsStarted += 1
    listening.meeting = Meeting(continuation: continuation, number: listening.meetingsStarted)
    return (listening.meetingsStarted, previous)
  }
}
