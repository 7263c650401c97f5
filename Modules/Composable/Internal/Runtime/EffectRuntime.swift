import Synchronization

/// The running effects of one store: the ``EffectRegistry`` that lists every running task under
/// the cancellation keys around it, behind a lock, so that cancelling an identifier is one
/// lookup. A navigated child's work is listed under the child in its slot too, which is how an
/// operator finds one slot's live children (``reconcile(_:stack:keeping:)``). Each store has its
/// own runtime.
/// The walk that starts effects is in `EffectWalk.swift`; a task's life, in `EffectTask.swift`.
package final class EffectRuntime: Sendable {
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
  func unregisterTasks(under key: CancellationKey, into tasks: inout [Task<Void, any Error>]) {
    changeRegistry { $0.unregisterTasks(under: key, into: &tasks) }
  }

  /// Cancels the work of the live children of the navigation slot at `slot` that `keeps`
  /// rejects, those its operator no longer holds, and returns them.
  ///
  /// For a stack, `stack` is its log as ``StackState/takeLog()`` took it. The runtime remembers
  /// the moment it last reconciled each slot (a ``StackIDsBefore``) and asks the log what was
  /// removed since (``StackIDsBefore/removed(in:)``): nothing is looked at when the stack has not
  /// changed, only the listed IDs when the log starts at that moment, every live child when it
  /// cannot tell. Since versions come from one counter and the log starts again whenever it is
  /// taken, none has fewer children looked at than went. A presentation or an optional child has
  /// its one live child looked at. Guarded by `ReconciliationTests`, `NavigationCostTests` (the
  /// entries a push and a pop examine) and the stack model tests.
  @discardableResult
  package func reconcile(
    _ slot: NavigationIDPath,
    stack: StackIDsBefore.Log?,
    keeping keeps: (HashableIdentity) -> Bool
  ) -> [HashableIdentity] {
    let (tasks, children) = changeRegistry { $0.reconcile(slot, stack: stack, keeping: keeps) }
    for task in tasks { task.cancel() }
    return children
  }

  /// The children of the slot at `slot` that have running work.
  package func liveChildren(in slot: NavigationIDPath) -> [HashableIdentity] {
    registry.withLock { registry in
      var children: [HashableIdentity] = []
      registry.liveChildren[slot]?.children.visit { children.append($0) }
      return children
    }
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

// MARK: - The registry

/// The tables of a store's running tasks, kept by ``EffectRuntime`` under its lock.
///
/// Invariants, which every change below keeps:
/// - a task in ``running`` is registered under exactly the keys its entry lists, and
///   ``tokensByKey`` lists a token under a key only while that task is registered under it;
/// - a key has an entry in ``tokensByKey`` only while it has a task, and a navigated child is
///   in ``liveChildren`` only while its key has one;
/// so a registry with nothing running is empty (`CancellationTests` and the navigation tests
/// check that nothing is left behind).
struct EffectRegistry {
  /// The running tasks, each under its token; ``Entry/vacant`` under a free token.
  var running = TokenTable<Entry>(vacant: .vacant)
  var nextSequence: UInt64 = 0
  var tokensByKey: [CancellationKey: SmallSet<Int>] = [:]
  /// The children with running work in each navigation slot, and, for a stack, the moment the
  /// slot was last reconciled at (see ``EffectRuntime/reconcile(_:stack:keeping:)``).
  var liveChildren:
    [NavigationIDPath: (children: SmallSet<HashableIdentity>, reconciled: StackIDsBefore?)] = [:]
  var examinedEntryCount = 0

  /// A running task and what it is registered under.
  struct Entry {
    /// The task; `nil` under a free token.
    var task: Task<Void, any Error>?
    /// The keys the task is registered under; emptied when it is unregistered from them.
    var keys: SmallArray<CancellationKey>
    /// The action that started the task, when the runtime records origins.
    var origin: (any Sendable)?
    var group: EffectGroup?
    /// The task's token in `group`; `nil` when the group was cancelled before the task joined.
    var groupToken: Int?
    /// When the task started relative to the others, for listing them oldest first.
    var sequence: UInt64
    /// Whether a test store still expects the task to finish.
    var isTracked: Bool

    static var vacant: Self {
      Self(
        task: nil,
        keys: SmallArray(),
        origin: nil,
        group: nil,
        groupToken: nil,
        sequence: 0,
        isTracked: false
      )
    }
  }

  /// The task running under `token`, or `nil` when the token is free.
  func task(at token: Int) -> Task<Void, any Error>? {
    running.elements.indices.contains(token) ? running.elements[token].task : nil
  }

  // MARK: - Registering

  /// Registers a task that has just been created under `token` (``TokenTable/nextToken``).
  mutating func register(
    _ task: Task<Void, any Error>,
    token: Int,
    keys: consuming SmallArray<CancellationKey>,
    origin: (any Sendable)?,
    group: EffectGroup?,
    groupToken: Int?,
    isTracked: Bool
  ) {
    keys.visit { key in
      // NB: One lookup, new key or not (`Benchmarks/instruction-counts`, start + cancel).
      var isNewKey = false
      tokensByKey[key, default: Self.noTokens(noting: &isNewKey)].insert(token)
      guard isNewKey, let child = key.navigatedChild else { return }
      if liveChildren[key.path] == nil {
        liveChildren[key.path] = (SmallSet(child), nil)
      } else {
        liveChildren[key.path]?.children.insert(child)
      }
    }
    running.insert(
      Entry(
        task: task,
        keys: keys,
        origin: origin,
        group: group,
        groupToken: groupToken,
        sequence: nextSequence,
        isTracked: isTracked
      )
    )
    nextSequence += 1
  }

  /// No tokens, for a key registered for the first time; sets `isNew`.
  private static func noTokens(noting isNew: inout Bool) -> SmallSet<Int> {
    isNew = true
    return SmallSet()
  }

  // MARK: - Unregistering

  /// Unregisters a finished task from every key it is still under, and returns its group and
  /// its token there (not the large entry); `nil` when the token is free or it has no group.
  mutating func unregister(_ token: Int) -> (EffectGroup, groupToken: Int?)? {
    guard task(at: token) != nil else { return nil }
    let entry = running.remove(at: token)
    entry.keys.visit { key in
      unregister(token, from: key)
    }
    return entry.group.map { ($0, entry.groupToken) }
  }

  private mutating func unregister(_ token: Int, from key: CancellationKey) {
    // NB: Taken out and put back: `tokensByKey[key]?.remove` allocates a frame on every call
    // (`Benchmarks/instruction-counts`, start + cancel).
    guard var tokens = tokensByKey.removeValue(forKey: key) else { return }
    guard tokens.remove(token), tokens.isEmpty else {
      tokensByKey[key] = tokens
      return
    }
    unregisterChild(of: key)
  }

  /// Takes a navigated child out of its slot's live children once nothing runs under its key.
  private mutating func unregisterChild(of key: CancellationKey) {
    guard let child = key.navigatedChild else { return }
    liveChildren[key.path]?.children.remove(child)
    if liveChildren[key.path]?.children.isEmpty == true {
      liveChildren[key.path] = nil
    }
  }

  /// Unregisters every task under `key` from every key, and adds it to `tasks` for the caller to
  /// cancel; each task stays in ``running`` until it finishes.
  mutating func unregisterTasks(
    under key: CancellationKey, into tasks: inout [Task<Void, any Error>]
  ) {
    examinedEntryCount += 1
    guard let tokens = tokensByKey.removeValue(forKey: key) else { return }
    unregisterChild(of: key)
    tokens.visit { token in
      guard let task = task(at: token) else { return }
      examinedEntryCount += 1
      tasks.append(task)
      var keys = SmallArray<CancellationKey>()
      running.modify(token) { swap(&keys, &$0.keys) }
      // NB: An entry lists exactly its task's keys, so one with a single key lists `key` alone
      // (this assertion; `CancellationTests`' nested identifiers).
      assert(keys.count != 1 || keys.contains { $0 == key }, "A task under a key it lacks")
      guard keys.count > 1 else { return }
      keys.visit { other in
        if other != key { unregister(token, from: other) }
      }
    }
  }

  /// Unregisters every task, and returns each with its group: the store is going away.
  mutating func unregisterAll() -> [(Task<Void, any Error>, EffectGroup?)] {
    tokensByKey.removeAll()
    liveChildren.removeAll()
    for token in running.elements.indices {
      running.modify(token) { $0.keys = SmallArray() }
    }
    return running.elements.compactMap { entry in entry.task.map { ($0, entry.group) } }
  }

  // MARK: - Reconciling

  /// Unregisters the work of the live children of `slot` that `keeps` rejects; returns their
  /// tasks, for the caller to cancel, and the children. See
  /// ``EffectRuntime/reconcile(_:stack:keeping:)``.
  mutating func reconcile(
    _ slot: NavigationIDPath,
    stack: StackIDsBefore.Log?,
    keeping keeps: (HashableIdentity) -> Bool
  ) -> (tasks: [Task<Void, any Error>], children: [HashableIdentity]) {
    examinedEntryCount += 1
    guard var live = liveChildren[slot] else { return ([], []) }
    let now = stack.map { StackIDsBefore(version: $0.version) }
    if let now, live.reconciled == now { return ([], []) }
    let removed = stack.flatMap { log in live.reconciled?.removed(in: log) }
    var gone: [HashableIdentity] = []
    var examined = 0
    if let removed {
      for id in removed {
        let child = HashableIdentity(id)
        guard live.children.contains(child) else { continue }
        examined += 1
        if !keeps(child) { gone.append(child) }
      }
    } else {
      live.children.visit { child in
        examined += 1
        if !keeps(child) { gone.append(child) }
      }
    }
    examinedEntryCount += examined
    live.reconciled = now
    liveChildren[slot] = live
    var tasks: [Task<Void, any Error>] = []
    for child in gone {
      unregisterTasks(under: .navigation(slot: slot, child: child), into: &tasks)
    }
    return (tasks, gone)
  }
}
