import Synchronization

/// The running effects of one store: the ``EffectRegistry`` that lists every running task under
/// the cancellation keys around it, behind a lock, so that cancelling an identifier is one
/// lookup. A navigated child's work is listed under the child in its slot too, which is how an
/// operator finds one slot's live children (`Reconciliation`). Each store has its own runtime.
/// The walk that starts effects is in `EffectWalk.swift`; a task's life, in `EffectTask.swift`.
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
  var running = TokenTable<Entry>()
  var nextSequence: UInt64 = 0
  var tokensByKey: [CancellationKey: SmallSet<EffectRuntime.Token>] = [:]
  /// The children with running work in each navigation slot.
  var liveChildren: [NavigationIDPath: LiveChildren] = [:]
  var examinedEntryCount = 0

  /// A running task and what it is registered under.
  struct Entry: TokenTableElement {
    /// The task; `nil` under a free token.
    var task: EffectTask?
    /// The keys the task is registered under; emptied when it is unregistered from them.
    var keys: SmallArray<CancellationKey>
    /// The action that started the task, when the runtime records origins; a reference, so
    /// that an entry moves in and out of the table without copying an existential.
    var origin: Origin?
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

  /// The action that started a task, kept for diagnostics.
  final class Origin: Sendable {
    let action: any Sendable

    init(_ action: any Sendable) {
      self.action = action
    }
  }

  /// The navigated children of one slot that have running work, and the stack version they
  /// were last reconciled against (see ``Reconciliation``).
  struct LiveChildren {
    var children: SmallSet<HashableIdentity>
    var reconciledVersion: UInt64?
  }

  /// The task running under `token`, or `nil` when the token is free.
  func task(at token: EffectRuntime.Token) -> EffectTask? {
    running.elements.indices.contains(token) ? running.elements[token].task : nil
  }

  // MARK: - Registering

  /// Registers a task that has just been created under `token` (``TokenTable/nextToken``).
  mutating func register(
    _ task: EffectTask,
    token: EffectRuntime.Token,
    keys: consuming SmallArray<CancellationKey>,
    origin: Origin?,
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
        liveChildren[key.path] = LiveChildren(children: SmallSet(child))
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
  private static func noTokens(noting isNew: inout Bool) -> SmallSet<EffectRuntime.Token> {
    isNew = true
    return SmallSet()
  }

  // MARK: - Unregistering

  /// Unregisters a finished task from every key it is still under, and returns its group and
  /// its token there (not the large entry); `nil` when the token is free or it has no group.
  mutating func unregister(_ token: EffectRuntime.Token) -> (EffectGroup, groupToken: Int?)? {
    guard task(at: token) != nil else { return nil }
    let entry = running.remove(at: token)
    entry.keys.visit { key in
      unregister(token, from: key)
    }
    return entry.group.map { ($0, entry.groupToken) }
  }

  private mutating func unregister(_ token: EffectRuntime.Token, from key: CancellationKey) {
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
  mutating func unregisterTasks(under key: CancellationKey, into tasks: inout [EffectTask]) {
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
  mutating func unregisterAll() -> [(EffectTask, EffectGroup?)] {
    tokensByKey.removeAll()
    liveChildren.removeAll()
    for token in running.elements.indices {
      running.modify(token) { $0.keys = SmallArray() }
    }
    return running.elements.compactMap { entry in entry.task.map { ($0, entry.group) } }
  }
}
