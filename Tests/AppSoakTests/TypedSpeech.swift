import SpeechClient
import Synchronization

/// A speech client whose transcription is what the soak types, and which can fail.
final class TypedSpeech: Sendable {
  private let transcription = Mutex<
    (text: String, continuation: AsyncThrowingStream<TranscriptionResult, any Error>.Continuation?)
  >(("", nil))

  var client: SpeechClient {
    SpeechClient(
      authorizationStatus: { .authorized },
      requestAuthorization: { .authorized },
      startTranscription: { [self] in
        let (stream, continuation) = AsyncThrowingStream<TranscriptionResult, any Error>
          .makeStream()
        transcription.withLock { $0 = ("", continuation) }
        return stream
      }
    )
  }

  func type(_ line: String) {
    transcription.withLock { transcription in
      transcription.text += transcription.text.isEmpty ? line : "\n\(line)"
      transcription.continuation?.yield(
        TranscriptionResult(transcript: transcription.text, isFinal: false)
      )
    }
  }

  func fail() {
    struct RecognizerFailed: Error {}
    transcription.withLock { $0.continuation?.finish(throwing: RecognizerFailed()) }
  }
}
