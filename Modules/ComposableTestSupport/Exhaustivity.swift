/// How strictly a ``TestStore`` checks a test.
///
/// An exhaustive test (`.on`, the default) must assert every state change, receive every action
/// effects send, and see every effect finish. A non-exhaustive test (`.off`) asserts only what
/// it names: useful for integration tests of a root feature, where exhaustive assertions on
/// every child would drown the behaviour under test.
///
/// ```swift
/// store.exhaustivity = .off(showSkippedAssertions: true)
/// ```
public enum Exhaustivity: Equatable, Sendable {
  /// Every change, received action and effect must be accounted for.
  case on

  /// Only what the test asserts is checked.
  ///
  /// With `showSkippedAssertions`, what was not asserted is reported as a known issue, so the
  /// test passes but the skipped checks are visible in its output.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without showing what was skipped.
  public static let off = Self.off(showSkippedAssertions: false)
}
