extension Effect {
  /// Lifts the effects of a navigated child (a stack element, a presentation, an optional
  /// child) into its parent.
  ///
  /// Every action is embedded with `embed`; every piece of work is registered under the child
  /// in its slot, so that cancelling the child cancels all of it, including the work of the child's
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

  /// An effect that reconciles the children of a navigation slot with the state: it cancels
  /// the work of every child that `reconciliation` rejects (see ``Reconciliation``).
  ///
  /// It runs when the store starts it, after the effects returned before it in the same tree
  /// have been registered, so work a child started in the action that removed it is cancelled
  /// too.
  package static func reconcile(_ reconciliation: Reconciliation) -> Self {
    Self(box: ReconcileBox(reconciliation))
  }

  /// An effect that cancels everything the navigated child `child` of `slot` started: a
  /// dismissed presentation.
  package static func cancelChild(_ child: HashableIdentity, in slot: NavigationIDPath) -> Self {
    Self(box: CancelBox(.navigation(slot: slot, child: child)))
  }
}
