public import Dependencies

extension SpeechClient: DependencyKey {
  /// There is no speech recogniser on Linux: the live client says so, as "restricted", and a
  /// transcription fails at once. Front ends that can capture speech another way (the terminal
  /// app takes typed lines) override this dependency.
  public static let liveValue = Self(
    authorizationStatus: { .restricted },
    requestAuthorization: { .restricted },
    startTranscription: { AsyncThrowingStream { $0.finish(throwing: SpeechUnavailable()) } }
  )
}

/// The error of a transcription started where no speech recogniser exists.
public struct SpeechUnavailable: Error, Equatable, CustomStringConvertible {
  /// Why transcription failed.
  public var description: String { "Speech recognition is not available on this system." }
}
