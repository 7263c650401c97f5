internal import ConcurrencyExtras

/// Runs `operation` with every task in the process on the main serial executor, so that effects
/// interleave with it in one order, the same on every run.
///
/// A script or a model test that advances a `TestClock` and then yields needs the effects it
/// started to have had their turn; on one thread they have. The executor is one switch for the
/// whole process, and tests run side by side in one process: a caller that switched it off on
/// its way out would switch it off under every other. So this function and the test store hold
/// it by count, and it goes back to how it was only when the last holder leaves. Use it instead
/// of swift-concurrency-extras' `withMainSerialExecutor`, which restores the value it found.
///
/// ```swift
/// await withSerialEffects {
///   store.send(.startButtonTapped)
///   await clock.advance(by: .seconds(1))
///   await Task.megaYield()
/// }
/// ```
@MainActor
public func withSerialEffects<Result>(
  _ operation: @MainActor () async throws -> Result
) async rethrows -> Result {
  SerialEffects.acquire()
  defer { SerialEffects.release() }
  return try await operation()
}

/// The count behind ``withSerialEffects(_:)``, for holders whose lifetime is not one call, such
/// as a test store.
@MainActor
package enum SerialEffects {
  private static var holders = 0
  private static var wasEnabled = false

  /// Puts every task on the main serial executor until the matching ``release()``.
  package static func acquire() {
    if holders == 0 {
      wasEnabled = uncheckedUseMainSerialExecutor
      uncheckedUseMainSerialExecutor = true
    }
    holders += 1
  }

  /// Ends one hold; the last restores the executor the first found.
  package static func release() {
    precondition(holders > 0, "SerialEffects.release() without a matching acquire()")
    holders -= 1
    if holders == 0 {
      uncheckedUseMainSerialExecutor = wasEnabled
    }
  }
}
