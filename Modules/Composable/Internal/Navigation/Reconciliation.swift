import Synchronization

/// A navigation operator's request to cancel the work of the children of its slot that have left
/// the state: every child with running work that `keeps` rejects.
///
/// The runtime keeps each slot's children with running work (`LiveChildren`), so a
/// reconciliation looks at one slot. A presentation or an optional child is reconciled by looking
/// at its one child. A push or a pop must not look at every element below, so a stack's
/// reconciliation carries its ``StackChanges`` and looks only at the elements removed since the
/// runtime last reconciled the slot, when it can tell which those are:
///
/// - The runtime records, for each slot, the stack version it last reconciled the slot against
///   (`LiveChildren.reconciledVersion`); a slot that gains live children has none.
/// - ``StackChanges/version`` changes whenever the stack's IDs change, and
///   ``StackChanges/removals`` lists every ID removed since version
///   ``StackChanges/Removals/since`` (while it is complete).
/// - The operator takes the changes (`StackState.takeChanges()`, which starts a new list at the
///   current version) and hands them to the runtime after every action that changed the stack's
///   IDs, and before every action while a child of the store has running work.
///
/// So a slot reconciled at the stack's version has lost nothing; one reconciled at
/// ``StackChanges/Removals/since``, at most the listed IDs; any other has every live child
/// checked. None ever checks fewer children than left. Guarded by `ReconciliationTests`,
/// `NavigationCostTests` (the entries a push and a pop examine) and the stack model tests.
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

/// The changes to a stack's IDs since a navigation operator last took them: the stack's version
/// and the IDs removed since an earlier version. A stack keeps the two (`StackState.Storage`);
/// see ``Reconciliation`` for how they meet the runtime's.
package struct StackChanges: Sendable {
  /// Identifies the stack's sequence of IDs (``nextVersion()``).
  package let version: UInt64
  /// The IDs removed since an earlier version.
  package let removals: Removals

  /// The IDs removed from a stack since version ``since``.
  package struct Removals: Sendable {
    /// The version at which the list started.
    package private(set) var since: UInt64
    /// The IDs removed since ``since``, oldest first; empty when ``isComplete`` is `false`.
    package private(set) var ids: [StackElementID] = []
    /// Whether ``ids`` lists every removal since ``since``: a list that would grow past
    /// ``limit`` is given up, and the next reconciliation checks every live child instead,
    /// which costs about what the removals did.
    package private(set) var isComplete = true

    /// The most removals listed before the list is given up.
    static var limit: Int { 32 }

    /// An empty list, started at `version`.
    init(since version: UInt64) {
      self.since = version
    }

    /// Adds IDs removed by a change to the stack.
    mutating func record(_ removed: some Collection<StackElementID>) {
      guard isComplete, !removed.isEmpty else { return }
      guard ids.count + removed.count <= Self.limit else {
        ids = []
        isComplete = false
        return
      }
      ids.append(contentsOf: removed)
    }

    /// Whether this is an empty list started at `version`, as a new one would be.
    func isEmpty(since version: UInt64) -> Bool {
      since == version && isComplete && ids.isEmpty
    }
  }

  /// A new version of a stack's IDs, for every change to them: drawn from one counter for the
  /// process, so two stacks with the same version have the same IDs. Writes to an element keep
  /// the version.
  static func nextVersion() -> UInt64 {
    versions.wrappingAdd(1, ordering: .relaxed).newValue
  }

  private static let versions = Atomic<UInt64>(0)
}

extension Effect {
  /// An effect that reconciles the children of a navigation slot with the state: it cancels
  /// the work of every child that `reconciliation` rejects (see ``Reconciliation``).
  ///
  /// It runs when the store starts it, after the effects returned before it in the same tree
  /// have been registered, so work a child started in the action that removed it is cancelled
  /// too.
  package static func reconcile(_ reconciliation: Reconciliation) -> Self {
    Self(box: ReconcileBox(reconciliation))
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
    if let removals = changes?.removals, removals.isComplete,
      live.reconciledVersion == removals.since
    {
      for id in removals.ids {
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
