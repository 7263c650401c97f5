import ConcurrencyExtras

/// Keeps every task on the main serial executor while at least one ``TestStore`` is alive.
///
/// Effects then interleave with the test deterministically: when a test advances a `TestClock`
/// or waits for an action, the effects it started have had their turn on the same thread. The
/// executor is process-wide, so test stores share one count and the last one restores it.
@MainActor
enum MainSerialExecutorLease {
  private static var count = 0
  private static var wasEnabled = false

  static func acquire() {
    if count == 0 {
      wasEnabled = uncheckedUseMainSerialExecutor
      uncheckedUseMainSerialExecutor = true
    }
    count += 1
  }

  static func release() {
    count -= 1
    if count == 0 {
      uncheckedUseMainSerialExecutor = wasEnabled
    }
  }
}
