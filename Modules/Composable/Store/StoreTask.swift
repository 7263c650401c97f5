/// The effects started by sending one action to a ``Store``.
///
/// Await ``finish()`` to wait for them (for example while a screen is visible), or ``cancel()``
/// them. Actions those effects later send start effects of their own, which this handle does
/// not cover.
///
/// ```swift
/// let task = store.send(.onTask)
/// // … when the screen goes away:
/// task.cancel()
/// ```
public struct StoreTask: Hashable, Sendable {
  package let tasks: [Task<Void, Never>]

  package init(tasks: [Task<Void, Never>]) {
    self.tasks = tasks
  }

  /// Cancels the effects.
  public func cancel() {
    for task in tasks { task.cancel() }
  }

  /// Waits for the effects to finish.
  ///
  /// Cancelling the task that waits cancels the effects, which ties them to the lifetime of
  /// whatever awaits them.
  public func finish() async {
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
    } onCancel: {
      cancel()
    }
  }

  /// Whether every effect has been cancelled. `true` when no effect was started.
  public var isCancelled: Bool {
    tasks.allSatisfy(\.isCancelled)
  }
}
