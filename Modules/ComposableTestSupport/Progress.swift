/// Lets a ``TestStore`` sleep until something it waits for may have happened: an effect sent an
/// action or finished.
///
/// Waiting is driven by those events only, never by the wall clock, so a slow machine cannot
/// fail a test that passes. A wait that can never end (an effect waiting on a clock the test
/// never advances) lasts until the waiting task is cancelled, for example by a test's
/// `.timeLimit`, and then the test store reports what it was waiting for.
@MainActor
final class Progress {
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Wakes every waiter so that it checks its condition again.
  func signal() {
    let waiters = self.waiters
    self.waiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until `condition` holds, checking it again after every signal.
  ///
  /// - Returns: Whether `condition` holds; `false` when the waiting task was cancelled first.
  func wait(until condition: () -> Bool) async -> Bool {
    while !condition() {
      guard !Task.isCancelled else { return false }
      await withTaskCancellationHandler {
        await withCheckedContinuation { waiters.append($0) }
      } onCancel: {
        Task { @MainActor in self.signal() }
      }
    }
    return true
  }
}
