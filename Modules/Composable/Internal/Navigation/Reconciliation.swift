import Synchronization

/// A navigation operator's request to cancel the work of the children of its slot that have left
/// the state: every child with running work that `keeps` rejects.
///
/// The effect runtime keeps, for each slot, the children with running work (`LiveChildren`), so
/// a reconciliation looks at that slot alone. A presentation or an optional child has at most
/// one child, and is reconciled by looking at it. A stack can have many, and a push or a pop
/// should not cost a look at every element below; so a stack's reconciliation carries its
/// ``StackChanges``, and looks only at the elements removed since the runtime last reconciled
/// the slot, when it can tell which those are:
///
/// - The runtime records, for each slot, the stack version it last reconciled the slot
///   against (`LiveChildren.reconciledVersion`).
/// - ``StackChanges/version`` changes whenever the stack's IDs change, and ``StackChanges``
///   lists every ID removed since version ``StackChanges/since`` (while it is complete).
/// - After handing its changes to the runtime, the operator starts a new list at the current
///   version (`StackState.markReconciled()`).
///
/// So: a slot reconciled at the stack's version has lost nothing since; a slot reconciled at
/// ``StackChanges/since`` has lost at most the listed IDs; any other slot (the list was given up,
/// or the stack was shared and not restarted) has every live child checked. Each of these only
/// ever checks more children than left, never fewer. Guarded by `NavigationCostTests` (how many
/// entries a push and a pop examine), `StackReducerLifetimeTests` and the stack model tests.
@usableFromInline
package struct Reconciliation: Sendable {
  /// The slot whose children are reconciled.
  let slot: NavigationIDPath
  /// The stack's changes, for a stack; `nil` checks every live child.
  let changes: StackChanges?
  /// Whether a child is still in the state.
  let keeps: @Sendable (HashableIdentity) -> Bool

  package init(
    slot: NavigationIDPath,
    changes: StackChanges? = nil,
    keeping keeps: @escaping @Sendable (HashableIdentity) -> Bool
  ) {
    self.slot = slot
    self.changes = changes
    self.keeps = keeps
  }
}

/// The changes to a stack's IDs since a navigation operator last reconciled the stack's
/// children: the stack's version and the IDs removed since an earlier version. Kept in the
/// stack's storage; see ``Reconciliation`` for how the two meet.
package struct StackChanges: Sendable {
  /// Identifies the sequence of IDs: drawn from one counter for the process whenever the IDs
  /// change, so two stacks with the same version have the same IDs. Writes to an element keep
  /// it.
  package private(set) var version: UInt64
  /// The version at which ``removed`` started.
  package private(set) var since: UInt64
  /// The IDs removed since ``since``, oldest first; empty when ``isComplete`` is `false`.
  package private(set) var removed: [StackElementID] = []
  /// Whether ``removed`` lists every removal since ``since``: a list that would grow past
  /// ``limit`` is given up, and the next reconciliation checks every live child instead, which
  /// costs about what the removals did.
  package private(set) var isComplete = true

  /// The most removals listed before the list is given up.
  static var limit: Int { 32 }

  /// The changes of a new stack: a new version, nothing removed.
  init() {
    version = Self.nextVersion()
    since = version
  }

  /// Records a change to the IDs that removed none, such as a push.
  mutating func recordInsertion() {
    version = Self.nextVersion()
  }

  /// Records a change to the IDs that removed `ids` (and may have inserted others).
  mutating func recordRemoval(of ids: some Collection<StackElementID>) {
    version = Self.nextVersion()
    guard isComplete, !ids.isEmpty else { return }
    guard removed.count + ids.count <= Self.limit else {
      removed = []
      isComplete = false
      return
    }
    removed.append(contentsOf: ids)
  }

  /// Whether a new list started now would differ from this one.
  var hasChangesSinceReconciled: Bool {
    since != version || !removed.isEmpty || !isComplete
  }

  /// Starts a new list at the current version, once the runtime has reconciled the stack.
  mutating func markReconciled() {
    since = version
    removed = []
    isComplete = true
  }

  private static let versions = Atomic<UInt64>(0)

  private static func nextVersion() -> UInt64 {
    versions.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

extension EffectRegistry {
  /// Unregisters the work of the children of the reconciled slot that it rejects; returns their
  /// tasks, for the caller to cancel, and the children. See ``Reconciliation``.
  mutating func reconcile(
    _ reconciliation: Reconciliation
  ) -> (tasks: [EffectTask], children: [HashableIdentity]) {
    examinedEntryCount += 1
    let (slot, changes, keeps) = (reconciliation.slot, reconciliation.changes, reconciliation.keeps)
    guard var live = liveChildren[slot] else { return ([], []) }
    if let changes, live.reconciledVersion == changes.version { return ([], []) }
    var gone: [HashableIdentity] = []
    var examined = 0
    if let changes, changes.isComplete, live.reconciledVersion == changes.since {
      for id in changes.removed {
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
    live.reconciledVersion = changes?.version
    liveChildren[slot] = live
    var tasks: [EffectTask] = []
    for child in gone {
      unregisterTasks(under: .navigation(slot: slot, child: child), into: &tasks)
    }
    return (tasks, gone)
  }
}
