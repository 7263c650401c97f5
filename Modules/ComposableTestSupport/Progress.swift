/// Lets a ``TestStore`` sleep until something it waits for may have happened: an effect sent an
/// action or finished.
///
/// Waiting is driven by those events, so a wait that ends does so as soon as it can. Each wait
/// has a bound, the only time a test store looks at the wall clock: for a wait that must end,
/// ``TestStore/timeout``, which only guards against a hang (an effect waiting on a clock the test
/// never advances); for a non-exhaustive `finish()`, the time it gives effects that may outlive
/// the test.
@MainActor
final class Progress {
  /// How a wait ended.
  enum Outcome {
    /// What the test store waited for happened.
    case happened
    /// The wait's bound passed first.
    case timedOut
    /// The waiting task was cancelled first, as by a test's `.timeLimit`.
    case cancelled
  }

  /// The clock the bound of each wait is measured on: the wall clock, or, in the test store's
  /// own tests, a clock they advance.
  var clock: any Clock<Duration> = ContinuousClock()
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var expiredWaits: Set<Int> = []
  private var nextWait = 0

  /// Wakes every waiter so that it checks its condition again.
  func signal() {
    let waiters = self.waiters
    self.waiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }

  /// Marks `wait` as past its bound, and wakes it.
  private func expire(_ wait: Int) {
    expiredWaits.insert(wait)
    signal()
  }

  /// Waits until `condition` holds, checking it again after every signal, for at most `bound`.
  func wait(until condition: () -> Bool, atMost bound: Duration) async -> Outcome {
    guard !condition() else { return .happened }
    let wait = nextWait
    nextWait += 1
    // NB: The alarm queues behind the work it waits for (background priority, after a hop), so a
    // test starved of turns by the others in its process is not failed as hung.
    let alarm = Task.detached(priority: .background) { [clock] in
      guard (try? await clock.sleep(for: bound)) != nil else { return }
      await Task.yield()
      await self.expire(wait)
    }
    defer {
      alarm.cancel()
      expiredWaits.remove(wait)
    }
    while !condition() {
      guard !Task.isCancelled else { return .cancelled }
      guard !expiredWaits.contains(wait) else { return .timedOut }
      await withTaskCancellationHandler {
        await withCheckedContinuation { waiters.append($0) }
      } onCancel: {
        Task { @MainActor in self.signal() }
      }
    }
    return .happened
  }
}
