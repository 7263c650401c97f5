import Synchronization

/// The effects started by one action sent to a store from outside, and by every action those
/// effects send back, however far the cascade goes.
///
/// A view layer ties work to a screen's lifetime by awaiting or cancelling a ``StoreTask``; for
/// that to cover a screen's `onTask` and everything it leads to, the effects of actions sent by
/// its effects belong to the same group.
package final class EffectGroup: Sendable {
  private struct State {
    /// The running tasks, each under the token ``add(_:)`` gave it.
    var tasks = TokenTable<Task<Void, any Error>?>(vacant: nil)
    var isCancelled = false
    var isTracked = true
    /// Whether some task of the group finished without being cancelled.
    var hasCompletedTask = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  /// What the group was started for, such as where a test sent its action.
  package let label: (any Sendable)?
  private let state = Mutex(State())

  package init(label: (any Sendable)? = nil) {
    self.label = label
  }

  /// Adds a task that has just been started, and returns its token for
  /// ``taskDidFinish(_:wasCancelled:)`` — `nil` when the group has been cancelled already, in which
  /// case the caller cancels the task — and whether a test store expects it to finish (see
  /// `EffectRuntime.untrackRunningEffects()`).
  func add(_ task: Task<Void, any Error>) -> (token: Int?, isTracked: Bool) {
    state.withLock { state in
      guard !state.isCancelled else { return (nil, state.isTracked) }
      return (state.tasks.insert(task), state.isTracked)
    }
  }

  /// Unregisters a task whose work is over, given the token ``add(_:)`` returned for it, or
  /// `nil` for a task that never joined because the group was cancelled.
  func taskDidFinish(_ token: Int?, wasCancelled: Bool) {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      if let token {
        state.tasks.remove(at: token)
      }
      if !wasCancelled { state.hasCompletedTask = true }
      guard state.tasks.count == 0 else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Cancels every task of the group, and every task it gains from now on.
  package func cancel() {
    let tasks = state.withLock { state in
      state.isCancelled = true
      return state.tasks.elements.compactMap(\.self)
    }
    for task in tasks { task.cancel() }
  }

  /// Stops expecting the group's effects, now and to come, to finish.
  func untrack() {
    state.withLock { $0.isTracked = false }
  }

  /// Whether the group's effects were cancelled: by ``cancel()``, by cancellation identifiers,
  /// or because their store went away. `true` when no task was ever started.
  package var isCancelled: Bool {
    state.withLock { state in
      state.isCancelled
        || (!state.hasCompletedTask && state.tasks.elements.allSatisfy { $0?.isCancelled ?? true })
    }
  }

  /// Waits until no task of the group is running: the tasks running now and any that they
  /// lead to.
  package func finish() async {
    await withCheckedContinuation { continuation in
      let isIdle = state.withLock { state in
        guard state.tasks.count > 0 else { return true }
        state.waiters.append(continuation)
        return false
      }
      if isIdle { continuation.resume() }
    }
  }
}
