// What tests, the test store and the benchmarks read of a runtime, and the test store's hooks.

extension EffectRuntime {
  /// The number of tasks started by effects that have not finished yet.
  package var runningCount: Int {
    registry.withLock { $0.running.count }
  }

  /// The number of running tasks a test store still expects to finish.
  package var trackedRunningCount: Int {
    registry.withLock { $0.running.elements.count { $0.task != nil && $0.isTracked } }
  }

  /// The number of cancellation keys with at least one running task.
  package var cancellationKeyCount: Int {
    registry.withLock { $0.tokensByKey.count }
  }

  /// How many registry entries cancellations and reconciliations have looked at since the
  /// runtime was created: a work counter that lets tests show how that work scales.
  package var examinedEntryCount: Int {
    registry.withLock { $0.examinedEntryCount }
  }

  /// The tracked tasks still running, oldest first: the action that started each (when the
  /// runtime records origins) and the label of its group.
  package var runningEffects: [(origin: any Sendable, label: (any Sendable)?)] {
    registry.withLock { registry in
      registry.running.elements.sorted { $0.sequence < $1.sequence }.compactMap { entry in
        guard entry.task != nil, entry.isTracked, let origin = entry.origin else { return nil }
        return (origin, entry.group?.label)
      }
    }
  }

  /// Stops expecting the tasks running now, and those their groups start later (the rest of a
  /// concatenation, the effects of the actions they send), to finish, without cancelling them:
  /// a test store's `skipInFlightEffects`.
  package func untrackRunningEffects() {
    // NB: Under the registry's lock, so that no task joins a group as tracked after it was
    // untracked (`TestStoreTests.theWorkAnUntrackedEffectLeadsToIsUntrackedToo`).
    registry.withLock { registry in
      for token in registry.running.elements.indices {
        registry.running.modify(token) { $0.isTracked = false }
      }
      for entry in registry.running.elements {
        entry.group?.untrack()
      }
    }
  }

  /// Waits until every task running now has finished.
  package func waitForRunningTasks() async {
    let tasks = registry.withLock { registry in registry.running.elements.compactMap(\.task) }
    for task in tasks { _ = await task.result }
  }
}
