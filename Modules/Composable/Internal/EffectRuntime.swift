import Synchronization

/// Tracks and cancels the running effects of one store.
///
/// Every task an effect needs is registered here until it finishes, under the cancellation keys
/// that enclose it. A key with an identifier the user chose is registered at its navigation path
/// and at every path above it, so that cancelling an identifier — which reaches the same
/// identifier in the scope and everything below it — is one dictionary lookup, whatever else
/// runs in the store. The work of a navigated child (a stack element, a presentation) is also
/// registered under that child in its *slot*, which is how a navigation operator finds the live
/// children of one stack or sheet without looking at anything else.
///
/// A finished task leaves nothing behind, so ``runningCount`` and ``cancellationKeyCount`` are
/// zero whenever nothing runs. Each store owns its own runtime: identical keys in two stores
/// never meet. The interpreter that starts effects lives in `EffectRuntime+Start.swift`.
package final class EffectRuntime: Sendable {
  /// A running task's place in ``Tables/running``.
  typealias Token = Int

  struct Tables {
    /// The running tasks, each at its token; ``Entry/vacant`` where a task has finished.
    var running = Slots<Entry>()
    var nextSequence: UInt64 = 0
    var tokensByKey: [CancellationKey: SmallSet<Token>] = [:]
    /// The children with running work in each navigation slot.
    var slots: [NavigationIDPath: Slot] = [:]
    var examinedEntryCount = 0
  }

  struct Entry: SlotElement {
    /// The task; `nil` in a vacant slot.
    var task: EffectTask?
    /// The keys the task is registered under; emptied when it is cancelled.
    var keys: SmallArray<CancellationKey>
    /// The action that started the task, when the runtime records origins.
    ///
    /// NB: Boxed so that an entry carries one pointer rather than an existential: an entry is
    /// written into its slot and swapped out of it for every effect, and most runtimes record
    /// nothing.
    var origin: Origin?
    var group: EffectGroup?
    /// The task's slot in `group`; `nil` when the group was cancelled before the task joined.
    var groupSlot: Int?
    /// When the task started relative to the others, for listing them oldest first.
    var sequence: UInt64
    /// Whether a test store still expects the task to finish (see ``untrackRunningEffects()``).
    var isTracked: Bool

    /// What a slot holds once its task has finished.
    static var vacant: Self {
      Self(
        task: nil,
        keys: SmallArray(),
        origin: nil,
        group: nil,
        groupSlot: nil,
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

  struct Slot {
    var children: SmallSet<HashableIdentity>
    /// What the slot's owner last reconciled the children against (a stack's version), so that
    /// an unchanged stack costs nothing to check.
    var marker: UInt64?
  }

  private let tables = Mutex(Tables())
  private let slotCount = Atomic<Int>(0)
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
    tables.withLock { $0.running.count }
  }

  /// The number of running tasks a test store still expects to finish.
  package var trackedRunningCount: Int {
    tables.withLock { $0.running.elements.count { $0.task != nil && $0.isTracked } }
  }

  /// The number of cancellation keys with at least one running task.
  package var cancellationKeyCount: Int {
    tables.withLock { $0.tokensByKey.count }
  }

  /// How many registry entries cancellations and navigation checks have looked at since the
  /// runtime was created: a work counter that lets tests show how that work scales.
  package var examinedEntryCount: Int {
    tables.withLock { $0.examinedEntryCount }
  }

  /// Whether any navigated child has running work: when none has, navigation operators have
  /// nothing to end and skip their checks.
  package var hasNavigatedEffects: Bool {
    slotCount.load(ordering: .relaxed) > 0
  }

  /// The tracked tasks still running, oldest first: the action that started each (when
  /// recording origins) and the label of its group.
  package var runningEffects: [(origin: any Sendable, label: (any Sendable)?)] {
    tables.withLock { tables in
      tables.running.elements.sorted { $0.sequence < $1.sequence }.compactMap { entry in
        guard entry.task != nil, entry.isTracked, let origin = entry.origin else { return nil }
        return (origin.action, entry.group?.label)
      }
    }
  }

  /// Whether the slot has children with running work.
  package func hasChildren(in slot: NavigationIDPath) -> Bool {
    tables.withLock { $0.slots[slot] != nil }
  }

  // MARK: - Cancelling

  /// Cancels the running tasks registered under `key`: the identifier in the key's navigation
  /// scope and in every scope below it. A parent can cancel its children's work by identifier,
  /// while siblings never reach each other's.
  package func cancel(_ key: CancellationKey) {
    // NB: Cancelling runs cancellation handlers synchronously; never do it under the lock.
    var tasks: [EffectTask] = []
    detach(key, into: &tasks)
    for task in tasks { task.cancel() }
  }

  /// Removes what `cancel(_:)` would cancel from the tables, and adds its tasks to `tasks`.
  func detach(_ key: CancellationKey, into tasks: inout [EffectTask]) {
    changeTables { $0.detachTasks(under: key, into: &tasks) }
  }

  /// Ends the work of the children of `slot` that `keeps` rejects, unless the slot was last
  /// reconciled at `marker`; returns the tasks to cancel and the children that were ended.
  ///
  /// When `removed` lists every child removed since the slot was last reconciled, only those
  /// are looked at; otherwise every child with running work is.
  func detachChildren(
    of slot: NavigationIDPath,
    marker: UInt64?,
    removed: RemovedChildren?,
    keeping keeps: @Sendable (HashableIdentity) -> Bool
  ) -> (tasks: [EffectTask], children: [HashableIdentity]) {
    changeTables { tables in
      tables.detachChildren(of: slot, marker: marker, removed: removed, keeping: keeps)
    }
  }

  /// Ends, now, the work of the children of `slot` that `keeps` rejects (see
  /// ``detachChildren(of:marker:removed:keeping:)``), and returns the children that were ended.
  package func reconcile(
    _ slot: NavigationIDPath,
    marker: UInt64?,
    removed: RemovedChildren? = nil,
    keeping keeps: @Sendable (HashableIdentity) -> Bool
  ) -> [HashableIdentity] {
    let (tasks, children) = detachChildren(
      of: slot,
      marker: marker,
      removed: removed,
      keeping: keeps
    )
    for task in tasks { task.cancel() }
    return children
  }

  /// Cancels every running task and the groups they belong to: the store is going away.
  package func cancelAll() {
    let entries = changeTables { tables in
      tables.tokensByKey.removeAll()
      tables.slots.removeAll()
      for token in tables.running.elements.indices {
        tables.running.modify(token) { $0.keys = SmallArray() }
      }
      return tables.running.elements.compactMap { entry in entry.task.map { ($0, entry.group) } }
    }
    for (task, group) in entries {
      group?.markCancelled()
      task.cancel()
    }
  }

  /// Stops expecting the tasks running now, and those their groups start later (the rest of a
  /// concatenation, the effects of the actions they send), to finish, without cancelling them:
  /// what a test store's `skipInFlightEffects` does.
  package func untrackRunningEffects() {
    // NB: The groups are untracked under the tables' lock, under which `spawn` asks a group
    // whether it is tracked, so that a task a group starts meanwhile (the next step of a
    // concatenation, on another thread) cannot register as tracked in a group that is not.
    tables.withLock { tables in
      for token in tables.running.elements.indices {
        tables.running.modify(token) { $0.isTracked = false }
      }
      for entry in tables.running.elements {
        entry.group?.untrack()
      }
    }
  }

  /// Waits until every task running now has finished.
  package func waitForRunningTasks() async {
    let tasks = tables.withLock { tables in tables.running.elements.compactMap(\.task) }
    for task in tasks { _ = await task.result }
  }

  // MARK: - Registering

  /// Starts a task, registered under `keys` and added to `group`; `prefixes` remembers the paths
  /// above the keys' paths for the next task of the same walk.
  ///
  /// `makeTask` is given the task's token and starts the task, which must call
  /// ``finish(_:)`` with the token when its work is done. It runs under the lock, so that the
  /// task is registered before it can finish and unregister itself. (The task's own closure
  /// finishes it, rather than one wrapped around the work here, because each closure that
  /// captures something is an allocation per effect.)
  func spawn(
    keys: SmallArray<CancellationKey>,
    prefixes: inout PrefixCache,
    origin: some Sendable,
    group: EffectGroup?,
    makeTask: (_ token: Token) -> EffectTask
  ) -> EffectTask {
    let origin = recordsOrigins ? Origin(origin) : nil
    let (task, isInCancelledGroup) = changeTables { tables in
      let token = tables.running.nextSlot
      let task = makeTask(token)
      let (groupSlot, isTracked) = group?.add(task) ?? (nil, true)
      // NB: Expanded under the lock so that the entry can take the keys, and the slots the
      // entry, rather than copies of them; expanding mostly returns the keys as they are.
      let registered = Self.expand(keys, prefixes: &prefixes)
      registered.visit { key in
        tables.register(token, under: key)
      }
      tables.running.insert(
        Entry(
          task: task,
          keys: consume registered,
          origin: origin,
          group: group,
          groupSlot: groupSlot,
          sequence: tables.nextSequence,
          isTracked: isTracked
        )
      )
      tables.nextSequence += 1
      return (task, group != nil && groupSlot == nil)
    }
    if isInCancelledGroup { task.cancel() }
    return task
  }

  /// The keys a task is registered under: a key with a user's identifier at its path and every
  /// path above it; a navigated child's key as it is.
  private static func expand(
    _ keys: SmallArray<CancellationKey>,
    prefixes cache: inout PrefixCache
  ) -> SmallArray<CancellationKey> {
    guard keys.contains(where: isExpanded) else { return keys }
    // NB: Built in an array of the final size, then stored whole: appending to the small array
    // one key at a time would allocate twice and copy each key once more.
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

  /// Forgets a task started by ``spawn(keys:prefixes:origin:group:makeTask:)`` whose work is
  /// done; the task calls it last.
  func finish(_ token: Token) {
    let finished = changeTables { tables -> (EffectGroup, slot: Int?)? in
      guard let entry = tables.remove(token) else { return nil }
      entry.keys.visit { key in
        tables.unregister(token, from: key)
      }
      return entry.group.map { ($0, entry.groupSlot) }
    }
    if let (group, slot) = finished {
      // NB: The finishing task is the one that calls this.
      group.remove(slot: slot, wasCancelled: Task.isCancelled)
    }
    onFinish?()
  }

  /// Changes the tables under the lock, and publishes whether any slot has live children
  /// before letting go of it, so that the count never lags a later change.
  private func changeTables<Result: Sendable>(
    _ body: (inout Tables) -> Result
  ) -> Result {
    tables.withLock { tables in
      let result = body(&tables)
      slotCount.store(tables.slots.count, ordering: .relaxed)
      return result
    }
  }
}

/// The task that runs an effect's work, or the rest of a concatenation.
///
/// NB: Declared throwing, although its operation never throws: it catches and reports what the
/// work throws, and waiting for it reads its `result` only to wait. A task made from an
/// operation that does not throw is entered through a reabstraction thunk that the compiler
/// emits at `Task.init`: two asynchronous frames, 96 bytes with their headers, of the task's
/// first 984-byte block of memory, which an effect's task then overflows into a second block.
typealias EffectTask = Task<Void, any Error>

/// The children removed from a slot since it was last reconciled at `since`: all of them.
package struct RemovedChildren: Sendable {
  let since: UInt64
  let children: [HashableIdentity]

  package init(since: UInt64, children: [HashableIdentity]) {
    self.since = since
    self.children = children
  }
}

extension EffectRuntime.Tables {
  /// The task running at `token`, or `nil` when its slot is vacant.
  func task(at token: EffectRuntime.Token) -> EffectTask? {
    running.elements.indices.contains(token) ? running.elements[token].task : nil
  }

  /// Takes a finished task's entry out of its slot, and frees the slot for the next task.
  mutating func remove(_ token: EffectRuntime.Token) -> EffectRuntime.Entry? {
    guard task(at: token) != nil else { return nil }
    return running.remove(at: token)
  }

  mutating func register(_ token: EffectRuntime.Token, under key: CancellationKey) {
    // NB: One lookup, whether the key is new or not: the default is made only for a new key.
    var isNewKey = false
    tokensByKey[key, default: Self.emptyTokens(noting: &isNewKey)].insert(token)
    guard isNewKey, let child = key.navigatedChild else { return }
    if slots[key.path] == nil {
      slots[key.path] = EffectRuntime.Slot(children: SmallSet(child))
    } else {
      slots[key.path]?.children.insert(child)
    }
  }

  /// No tokens, for a key registered for the first time; sets `isNew`.
  private static func emptyTokens(noting isNew: inout Bool) -> SmallSet<EffectRuntime.Token> {
    isNew = true
    return SmallSet()
  }

  mutating func unregister(_ token: EffectRuntime.Token, from key: CancellationKey) {
    // NB: The set is taken out and put back rather than changed with `tokensByKey[key]?.remove`,
    // whose modify accessor allocates a frame on the heap on every call: this runs for every
    // key of every effect that ends.
    guard var tokens = tokensByKey.removeValue(forKey: key) else { return }
    guard tokens.remove(token), tokens.isEmpty else {
      tokensByKey[key] = tokens
      return
    }
    forgetChild(of: key)
  }

  /// Takes a navigated child out of its slot once nothing runs under the child's key.
  private mutating func forgetChild(of key: CancellationKey) {
    guard let child = key.navigatedChild else { return }
    slots[key.path]?.children.remove(child)
    if slots[key.path]?.children.isEmpty == true {
      slots[key.path] = nil
    }
  }

  /// Removes a task from every key it is registered under but `detachedKey`, which the caller
  /// has removed whole, and returns it, leaving it running until it notices its cancellation.
  mutating func detachTask(
    _ token: EffectRuntime.Token,
    exceptFrom detachedKey: CancellationKey
  ) -> EffectTask? {
    guard let task = task(at: token) else { return nil }
    examinedEntryCount += 1
    var keys = SmallArray<CancellationKey>()
    running.modify(token) { swap(&keys, &$0.keys) }
    // NB: The task was found under `detachedKey`, and `spawn` registers a task under exactly
    // the keys its entry keeps (nothing else empties them while a registration remains), so
    // when the entry has one key it is `detachedKey`: nothing else to unregister or compare.
    assert(keys.count != 1 || keys.contains { $0 == detachedKey }, "A task under a key it lacks")
    guard keys.count > 1 else { return task }
    keys.visit { key in
      // NB: Comparing keys costs less than looking up one that is gone.
      if key != detachedKey { unregister(token, from: key) }
    }
    return task
  }

  mutating func detachTasks(under key: CancellationKey, into tasks: inout [EffectTask]) {
    examinedEntryCount += 1
    // NB: The key's tasks are all detached, so its entry goes in one lookup, not one per task.
    guard let tokens = tokensByKey.removeValue(forKey: key) else { return }
    forgetChild(of: key)
    tokens.visit { token in
      if let task = detachTask(token, exceptFrom: key) { tasks.append(task) }
    }
  }

  mutating func detachChildren(
    of slot: NavigationIDPath,
    marker: UInt64?,
    removed: RemovedChildren?,
    keeping keeps: @Sendable (HashableIdentity) -> Bool
  ) -> (tasks: [EffectTask], children: [HashableIdentity]) {
    examinedEntryCount += 1
    guard var record = slots[slot] else { return ([], []) }
    if let marker, record.marker == marker { return ([], []) }
    var ended: [HashableIdentity] = []
    var examined = 0
    if let removed, let reconciled = record.marker, removed.since == reconciled {
      for child in removed.children where record.children.contains(child) {
        examined += 1
        if !keeps(child) { ended.append(child) }
      }
    } else {
      record.children.visit { child in
        examined += 1
        if !keeps(child) { ended.append(child) }
      }
    }
    examinedEntryCount += examined
    record.marker = marker
    slots[slot] = record
    var tasks: [EffectTask] = []
    for child in ended {
      detachTasks(under: .navigation(slot: slot, child: child), into: &tasks)
    }
    return (tasks, ended)
  }
}
