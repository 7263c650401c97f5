import Synchronization

/// Counts the long-running tasks that have started to sleep. The effect measurements wait for
/// every task they start to get there, so that cancelling wakes real sleepers in both the
/// effects and the raw-task baseline; the wait suspends rather than spins, so that the tasks
/// have the machine to themselves.
public final class Sleepers: Sendable {
  private struct State {
    var count = 0
    var target = Int.max
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  /// Forgets the sleepers counted so far.
  public func reset() {
    state.withLock { $0 = State() }
  }

  /// Counts one more sleeper.
  public func arrive() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.count += 1
      guard state.count >= state.target else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Waits until `count` tasks have arrived since the last reset.
  public func wait(for count: Int) async {
    await withCheckedContinuation { continuation in
      let isReady = state.withLock { state -> Bool in
        guard state.count < count else { return true }
        state.target = count
        state.waiter = continuation
        return false
      }
      if isReady { continuation.resume() }
    }
  }
}

/// The sleepers of this process.
public let sleepers = Sleepers()

/// What a long-running effect does: sleeps until it is cancelled.
public func sleepUntilCancelled() async {
  sleepers.arrive()
  try? await Task.sleep(for: .seconds(86_400))
}

/// The floor an effect's start and cancellation are measured against: starts `count` raw tasks
/// like an effect's, waits until all of them sleep, cancels them and waits until they are gone.
/// Reset ``sleepers`` first.
@MainActor
public func startAndCancelRawTasks(_ count: Int) async {
  var tasks: [Task<Void, Never>] = []
  tasks.reserveCapacity(count)
  for _ in 0..<count {
    tasks.append(startLongRunningTask())
  }
  await sleepers.wait(for: count)
  for task in tasks {
    task.cancel()
  }
  for task in tasks {
    await task.value
  }
}

/// A task like an effect's: started outside the main actor, sleeping until cancelled.
private nonisolated func startLongRunningTask() -> Task<Void, Never> {
  Task { await sleepUntilCancelled() }
}
