public import Dependencies
public import DependenciesMacros

/// Plays the sounds of a meeting.
///
/// ```swift
/// @Dependency(\.soundClient.playSpeakerChange) var playSpeakerChange
/// await playSpeakerChange()
/// ```
@DependencyClient
public struct SoundClient: Sendable {
  /// Signals that the next speaker's turn has started.
  public var playSpeakerChange: @Sendable () async -> Void
}

extension DependencyValues {
  /// Plays the sounds of a meeting. See ``SoundClient``.
  public var soundClient: SoundClient {
    get { self[SoundClient.self] }
    set { self[SoundClient.self] = newValue }
  }
}
