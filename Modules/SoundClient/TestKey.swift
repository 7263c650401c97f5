public import Dependencies

extension SoundClient: TestDependencyKey {
  /// Fails the test when a sound is played without the endpoint being overridden.
  public static let testValue = Self()

  /// Plays nothing.
  public static let previewValue = Self(playSpeakerChange: {})
}
