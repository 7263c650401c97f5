import Synchronization

/// The running effects of one store, and how they are cancelled.
///
/// Every task an effect needs is registered in the ``EffectRegistry``, under the lock, until it
/// finishes, under the cancellation keys that enclose it: cancelling an identifier is one
/// lookup, whatever else runs. The work of a navigated child is also registered under the child
/// in its slot, which is how a navigation operator finds the live children of one stack or sheet
/// (see `Reconciliation`). A finished task leaves nothing behind, and each store has its own
/// runtime, so identical keys in two stores never meet.
///
/// The walk that starts effects is in `EffectWalk.swift`; a task's life is in `EffectTask.swift`.
package final class EffectRuntime: Sendable {
  /// A running task's number in the registry.
  typealias Token = Int

  let registry = Mutex(EffectRegistry())
  /// The number of slots with live children, published with every change to the registry.
  private let slotsWithLiveChildren = Atomic<Int>(0)
  /// Whether to keep the action that started each task (see `EffectRuntime+Testing.swift`).
  let recordsOrigins: Bool
  let onFinish: (@Sendable () -> Void)?

  /// Creates a runtime.
  ///
  /// - Parameters:
  ///   - recordsOrigins: Whether to keep the action that started each task, for a test store's
  ///     "effect still running" failure.
  ///   - onFinish: Called, on the finishing task, each time a task has been unregistered.
  package init(recordsOrigins: Bool = false, onFinish: (@Sendable () -> Void)? = nil) {
    self.recordsOrigins = recordsOrigins
    self.onFinish = onFinish
  }

  /// Whether any navigated child has running work: when none has, navigation operators have
  /// nothing to cancel and skip their reconciliation.
  package var hasNavigatedEffects: Bool {
    slotsWithLiveChildren.load(ordering: .relaxed) > 0
  }

  /// Whether the slot has children with running work.
  package func hasLiveChildren(in slot: NavigationIDPath) -> Bool {
    registry.withLock { $0.liveChildren[slot] != nil }
  }

  // MARK: - Cancelling

  /// Unregisters the tasks under `key` (its identifier at its path and every path below it) and
  /// adds them to `tasks`, for the caller to cancel once the lock is let go: cancelling runs
  /// cancellation handlers synchronously, never under the lock.
  func unregisterTasks(under key: CancellationKey, into tasks: inout [EffectTask]) {
    changeRegistry { $0.unregisterTasks(under: key, into: &tasks) }
  }

  /// Reconciles a navigation slot's children with the state, cancels the work of those it
  /// rejects, and returns them. See ``Reconciliation``.
  @discardableResult
  package func reconcile(_ reconciliation: Reconciliation) -> [HashableIdentity] {
    let (tasks, children) = changeRegistry { $0.reconcile(reconciliation) }
    for task in tasks { task.cancel() }
    return children
  }

  /// Cancels every running task and the groups they belong to: the store is going away.
  package func cancelAll() {
    let entries = changeRegistry { $0.unregisterAll() }
    for (task, group) in entries {
      group?.cancel()
      task.cancel()
    }
  }

  /// Changes the registry under the lock, and publishes the number of slots with live children
  /// before letting go of it, so that ``hasNavigatedEffects`` never lags a later change.
  func changeRegistry<Result: Sendable>(_ body: (inout EffectRegistry) -> Result) -> Result {
    registry.withLock { registry in
      let result = body(&registry)
      slotsWithLiveChildren.store(registry.liveChildren.count, ordering: .relaxed)
      return result
    }
  }
}
