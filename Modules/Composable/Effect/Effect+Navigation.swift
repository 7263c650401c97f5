extension Effect {
  /// Lifts the effects of a navigated child (a stack element, a presentation, an optional
  /// child) into its parent.
  ///
  /// Every action is embedded with `embed`; every piece of work is registered under the child
  /// in its slot, so that ending the child stops all of it, including the work of the child's
  /// own children; and, when `dismissAction` is given, while the work runs `dismiss()` (which
  /// finds the child's scope in the `ReducerContext` the work captured) sends that action to
  /// the parent.
  package func navigated<ParentAction: Sendable>(
    _ child: NavigatedScope,
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismiss dismissAction: (@Sendable () -> ParentAction)?
  ) -> Effect<ParentAction> {
    if isNone { return .none }
    let lifted: Effect<ParentAction>
    if let dismissAction {
      let scope = child.path
      lifted = map(embed) { send, body in
        let handlers = DismissHandlers(scope: scope) { await send(dismissAction()) }
        try await DismissHandlers.$current.withValue(handlers) {
          try await body()
        }
      }
    } else {
      lifted = map(embed)
    }
    return Effect<ParentAction>(
      box: Effect<ParentAction>.CancellableBox(child.key, cancelInFlight: false, lifted)
    )
  }

  /// An effect that ends the work of every child of `slot` that `keeps` rejects: the stack
  /// elements or presentations that are gone from the state. `removed`, when given, lists every
  /// child removed since the slot was last reconciled, so only those need checking.
  ///
  /// It runs when the store starts it, after the effects returned before it in the same tree
  /// have been registered, so work a child started in the action that removed it ends too.
  package static func endChildren(
    of slot: NavigationIDPath,
    reconciledAt marker: UInt64? = nil,
    removed: RemovedChildren? = nil,
    keeping keeps: @escaping @Sendable (HashableIdentity) -> Bool
  ) -> Self {
    Self(
      box: ReconcileBox(
        NavigationReconciliation(slot: slot, marker: marker, removed: removed, keeps: keeps)
      )
    )
  }

  /// An effect that ends everything the navigated child `child` of `slot` started: a
  /// dismissed presentation.
  package static func end(child: HashableIdentity, in slot: NavigationIDPath) -> Self {
    Self(box: CancelBox(.navigation(slot: slot, child: child)))
  }
}

/// A navigated child's place: the slot it is in, its component there, and the navigation path
/// its own effects and children run under.
///
/// The paths are built when asked, not when the child receives an action: most of a child's
/// actions start no work and present nothing, and then nothing reads them.
package struct NavigatedScope: Sendable {
  /// The path of the feature the slot belongs to.
  private let parent: NavigationIDPath
  /// The stack or presentation the child is in: the identity of its ``NavigationSlot``, which
  /// the navigation operator builds once.
  private let navigationSlot: HashableIdentity
  /// The child within the slot.
  private let child: Child

  private enum Child: Sendable {
    /// A stack element, kept as its ID: an element's action builds no identity.
    case element(StackElementID)
    case identity(HashableIdentity)
  }

  /// The scope of the element `id` of the stack `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, element id: StackElementID) {
    self.parent = parent
    self.navigationSlot = slot
    self.child = .element(id)
  }

  /// The scope of `child` in `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, child: HashableIdentity) {
    self.parent = parent
    self.navigationSlot = slot
    self.child = .identity(child)
  }

  /// The child's own navigation path.
  package var path: NavigationIDPath {
    parent.appending(slot: navigationSlot, child: childIdentity)
  }

  /// The slot: the parent's path and the stack or presentation the child is in.
  package var slot: NavigationIDPath {
    parent.appending(identity: navigationSlot)
  }

  /// The key all of the child's work is registered under.
  var key: CancellationKey {
    .navigation(slot: slot, child: childIdentity)
  }

  private var childIdentity: HashableIdentity {
    switch child {
    case .element(let id): HashableIdentity(id)
    case .identity(let identity): identity
    }
  }
}

/// What ``Effect/endChildren(of:reconciledAt:removed:keeping:)`` asks of the runtime.
@usableFromInline
struct NavigationReconciliation: Sendable {
  let slot: NavigationIDPath
  let marker: UInt64?
  let removed: RemovedChildren?
  let keeps: @Sendable (HashableIdentity) -> Bool
}
