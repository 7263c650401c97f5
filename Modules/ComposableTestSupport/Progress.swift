/// Lets a ``TestStore`` sleep until something it waits for may have happened: an effect sent an
/// action or finished.
///
/// Waiting is event-driven: a passing test never waits on the wall clock. The timeout only
/// bounds how long a failing test hangs.
@MainActor
final class Progress {
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Wakes every waiter so that it re-checks its condition.
  func signal() {
    let waiters = self.waiters
    self.waiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until `condition` holds, or `timeout` has passed.
  ///
  /// - Returns: Whether `condition` holds.
  func wait(until condition: () -> Bool, timeout: Duration) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
      guard ContinuousClock.now < deadline else { return false }
      let alarm = Task { [weak self] in
        guard (try? await Task.sleep(until: deadline, clock: .continuous)) != nil else { return }
        self?.signal()
      }
      await withCheckedContinuation { waiters.append($0) }
      alarm.cancel()
    }
    return true
  }
}
