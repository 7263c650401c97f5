/// Keeps keys aimed at one screen from acting on another.
///
/// A person types ahead of what they see. When the screen changes without a key of theirs — a
/// meeting ends on time, an alert appears, a screen closes because of another instance's change
/// — the keys they were typing were meant for the screen that was there before: on the new one
/// a letter may delete, start or quit. So after such a change the guard holds every key until
/// the keyboard has been quiet for ``quietPeriod``; each key held restarts the wait, so typing
/// that runs on through the change is dropped until the person pauses and looks.
///
/// Times are durations on the app's own clock (real in a terminal, virtual in a script), so a
/// test or a script decides exactly when a key comes.
///
/// ```swift
/// var keys = InputGuard()
/// keys.screenChanged(at: .seconds(60))
/// keys.admitsKey(at: .seconds(60))   // false: typed as the screen changed
/// keys.admitsKey(at: .seconds(61))   // true: the keyboard was quiet for a moment first
/// ```
struct InputGuard: Sendable {
  /// How long the keyboard must be quiet after an unexpected change before keys act again:
  /// about the time a person takes to notice a change of screen.
  static let quietPeriod = Duration.milliseconds(500)

  /// The time before which keys are held, or `nil` when keys act.
  private var holdsKeysUntil: Duration?

  /// The keys held since the last unexpected change.
  private(set) var keysHeld = 0

  /// The screen changed without a key, at `time`: hold keys until the keyboard is quiet.
  mutating func screenChanged(at time: Duration) {
    holdsKeysUntil = time + Self.quietPeriod
    keysHeld = 0
  }

  /// Whether a key that comes at `time` may act. A key that may not is dropped, and the quiet
  /// period starts again from it.
  mutating func admitsKey(at time: Duration) -> Bool {
    guard let holdsKeysUntil else { return true }
    guard time >= holdsKeysUntil else {
      self.holdsKeysUntil = time + Self.quietPeriod
      keysHeld += 1
      return false
    }
    self.holdsKeysUntil = nil
    return true
  }
}
