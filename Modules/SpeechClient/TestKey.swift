public import Dependencies

extension SpeechClient: TestDependencyKey {
  /// Fails the test when any endpoint is called without being overridden.
  public static let testValue = Self()

  /// Authorizes at once and transcribes a few words, one every half second.
  public static let previewValue = Self(
    authorizationStatus: { .authorized },
    requestAuthorization: { .authorized },
    startTranscription: {
      AsyncThrowingStream { continuation in
        let task = Task {
          @Dependency(\.continuousClock) var clock
          var transcript = ""
          for word in previewWords {
            try await clock.sleep(for: .milliseconds(500))
            transcript += transcript.isEmpty ? word : " \(word)"
            continuation.yield(TranscriptionResult(transcript: transcript, isFinal: false))
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  )
}

private let previewWords = """
  Yesterday I finished the timer screen. Today I will look at saving meetings. No blockers.
  """.split(separator: " ").map(String.init)
