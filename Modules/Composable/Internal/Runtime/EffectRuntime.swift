import Synchronization

/// Tracks and cancels the running effects of one store.
///
/// Every task an effect needs is registered in the ``EffectRegistry`` until it finishes, under
/// the cancellation keys that enclose it. Cancelling an identifier is one lookup, whatever else
/// runs in the store; the work of a navigated child is also registered under the child in its
/// slot, which is how a navigation operator finds the live children of one stack or sheet
/// without looking at anything else (see `Reconciliation`).
///
/// A finished task leaves nothing behind, so ``runningCount`` and ``cancellationKeyCount`` are
/// zero whenever nothing runs. Each store owns its own runtime: identical keys in two stores
/// never meet. The interpreter that starts effects is in `EffectInterpreter.swift`.
package final class EffectRuntime: Sendable {
  /// A running task's number in the registry.
  typealias Token = Int

  private let registry = Mutex(EffectRegistry())
  /// The number of slots with live children, published with every change to the registry.
  private let slotsWithLiveChildren = Atomic<Int>(0)
  private let recordsOrigins: Bool
  private let onFinish: (@Sendable () -> Void)?

  /// Creates a runtime.
  ///
  /// - Parameters:
  ///   - recordsOrigins: Whether to remember the action that started each task, for
  ///     diagnostics such as a test store's "effect still running" failure.
  ///   - onFinish: Called, on the finishing task, each time a task has been unregistered.
  package init(recordsOrigins: Bool = false, onFinish: (@Sendable () -> Void)? = nil) {
    self.recordsOrigins = recordsOrigins
    self.onFinish = onFinish
  }

  // MARK: - Reading

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

  /// How many registry entries cancellations and navigation checks have looked at since the
  /// runtime was created: a work counter that lets tests show how that work scales.
  package var examinedEntryCount: Int {
    registry.withLock { $0.examinedEntryCount }
  }

  /// Whether any navigated child has running work: when none has, navigation operators have
  /// nothing to cancel and skip their checks.
  package var hasNavigatedEffects: Bool {
    slotsWithLiveChildren.load(ordering: .relaxed) > 0
  }

  /// The tracked tasks still running, oldest first: the action that started each (when
  /// recording origins) and the label of its group.
  package var runningEffects: [(origin: any Sendable, label: (any Sendable)?)] {
    registry.withLock { registry in
      registry.running.elements.sorted { $0.sequence < $1.sequence }.compactMap { entry in
        guard entry.task != nil, entry.isTracked, let origin = entry.origin else { return nil }
        return (origin.action, entry.group?.label)
      }
    }
  }

  /// Whether the slot has children with running work.
  package func hasLiveChildren(in slot: NavigationIDPath) -> Bool {
    registry.withLock { $0.liveChildren[slot] != nil }
  }

  // MARK: - Cancelling

  /// Unregisters the running tasks registered under `key` (the identifier in the key's
  /// navigation scope and in every scope below it: a parent can cancel its children's work by
  /// identifier, while siblings never reach each other's), and adds them to `tasks` for the
  /// caller to cancel once the lock is let go: cancelling runs cancellation handlers
  /// synchronously, never under the lock.
  func unregisterTasks(under key: CancellationKey, into tasks: inout [EffectTask]) {
    changeRegistry { $0.unregisterTasks(under: key, into: &tasks) }
  }

  /// Reconciles the children of a navigation slot with the state, and cancels the tasks of
  /// those it rejects; returns the children whose work was cancelled. Called by a navigation
  /// operator for removals made elsewhere, and by the interpreter for `Effect.reconcile`. See
  /// ``Reconciliation``.
  @discardableResult
  package func reconcile(_ reconciliation: Reconciliation) -> [HashableIdentity] {
    let (tasks, children) = changeRegistry { $0.reconcile(reconciliation) }
    // NB: Cancelling runs cancellation handlers synchronously; never under the lock.
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

  /// Stops expecting the tasks running now, and those their groups start later (the rest of a
  /// concatenation, the effects of the actions they send), to finish, without cancelling them:
  /// what a test store's `skipInFlightEffects` does.
  package func untrackRunningEffects() {
    // NB: The groups are untracked under the registry's lock, under which `spawn` asks a group
    // whether it is tracked, so that a task a group starts meanwhile (the next step of a
    // concatenation, on another thread) cannot register as tracked in a group that is not.
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

  // MARK: - Registering

  /// Starts a task, registered under `keys` and added to `group`; `prefixes` remembers the paths
  /// above the keys' paths for the next task of the same walk.
  ///
  /// `makeTask` is given the task's token and starts the task, which calls
  /// ``taskDidFinish(_:)`` with the token when its work is over. It runs under the lock, so
  /// that the task is registered before it can finish and unregister itself.
  func spawn(
    keys: SmallArray<CancellationKey>,
    prefixes: inout PrefixCache,
    origin: some Sendable,
    group: EffectGroup?,
    makeTask: (_ token: Token) -> EffectTask
  ) -> EffectTask {
    let origin = recordsOrigins ? EffectRegistry.Origin(origin) : nil
    let (task, isInCancelledGroup) = changeRegistry { registry in
      let token = registry.running.nextToken
      let task = makeTask(token)
      let (groupToken, isTracked) = group?.add(task) ?? (nil, true)
      registry.register(
        task,
        token: token,
        keys: Self.expand(keys, prefixes: &prefixes),
        origin: origin,
        group: group,
        groupToken: groupToken,
        isTracked: isTracked
      )
      return (task, group != nil && groupToken == nil)
    }
    if isInCancelledGroup { task.cancel() }
    return task
  }

  /// Unregisters a task started by ``spawn(keys:prefixes:origin:group:makeTask:)`` whose work is
  /// over; the task calls it last.
  ///
  /// Never inlined into the task's closure, whose frame every effect's task holds (see
  /// `EffectTask`).
  @inline(never)
  func taskDidFinish(_ token: Token) {
    let finished = changeRegistry { $0.unregister(token) }
    if let (group, groupToken) = finished {
      // NB: The finishing task is the one that calls this.
      group.taskDidFinish(groupToken, wasCancelled: Task.isCancelled)
    }
    onFinish?()
  }

  /// The keys a task is registered under: a key with a user's identifier at its path and every
  /// path above it, so that cancelling in a scope reaches the scopes below with one lookup; a
  /// navigated child's key as it is.
  private static func expand(
    _ keys: SmallArray<CancellationKey>,
    prefixes cache: inout PrefixCache
  ) -> SmallArray<CancellationKey> {
    guard keys.contains(where: isExpanded) else { return keys }
    var count = 0
    keys.visit { key in
      count += Self.isExpanded(key) ? key.path.components.count + 1 : 1
    }
    var expanded: [CancellationKey] = []
    expanded.reserveCapacity(count)
    keys.visit { key in
      guard Self.isExpanded(key) else {
        expanded.append(key)
        return
      }
      for path in cache.prefixes(of: key.path) {
        expanded.append(CancellationKey(id: key.id, path: path))
      }
    }
    return SmallArray(expanded)
  }

  /// Whether a task is registered under `key` at every path above the key's own too.
  private static func isExpanded(_ key: CancellationKey) -> Bool {
    !key.isNavigation && !key.path.isRoot
  }

  /// The paths above a key's path, remembered for the last path asked about: the effects one
  /// action returns mostly share their scope, and building the paths allocates each of them.
  struct PrefixCache {
    private var last: (path: NavigationIDPath, prefixes: [NavigationIDPath])?

    mutating func prefixes(of path: NavigationIDPath) -> [NavigationIDPath] {
      if let last, last.path == path { return last.prefixes }
      let prefixes = path.prefixes
      last = (path, prefixes)
      return prefixes
    }
  }

  /// Changes the registry under the lock, and publishes the number of slots with live children
  /// before letting go of it, so that ``hasNavigatedEffects`` never lags a later change.
  private func changeRegistry<Result: Sendable>(
    _ body: (inout EffectRegistry) -> Result
  ) -> Result {
    registry.withLock { registry in
      let result = body(&registry)
      slotsWithLiveChildren.store(registry.liveChildren.count, ordering: .relaxed)
      return result
    }
  }
}
