/// A child of a navigation operator — a stack element, a presentation, an optional child — as the
/// runtime sees it: the feature it belongs to, the slot it is in, and itself there.
///
/// From those it makes the child's own navigation path (where its effects and children run), its
/// slot's path, and the key all of its work is registered under. The paths are built when asked
/// for, not when the child receives an action: most actions start no work and read neither.
package struct NavigatedChild: Sendable {
  /// The path of the feature the slot belongs to.
  private let parent: NavigationIDPath
  /// The identity of the stack or presentation (its ``NavigationSlot``), built once by the
  /// operator.
  private let slot: HashableIdentity
  private let child: Child

  private enum Child: Sendable {
    /// A stack element, kept as its ID: an element's action builds no identity.
    case element(StackElementID)
    case identity(HashableIdentity)
  }

  /// The element `id` of the stack `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, element id: StackElementID) {
    self.parent = parent
    self.slot = slot
    self.child = .element(id)
  }

  /// The child `child` of `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, child: HashableIdentity) {
    self.parent = parent
    self.slot = slot
    self.child = .identity(child)
  }

  /// The child's own navigation path: its parent's, its slot, and itself.
  package var path: NavigationIDPath {
    parent.appending(slot: slot, child: identity)
  }

  /// The path of the child's slot: its parent's path and the slot.
  package var slotPath: NavigationIDPath {
    parent.appending(identity: slot)
  }

  /// The key all of the child's work is registered under: its identity, at its slot's path.
  var key: CancellationKey {
    .navigation(slot: slotPath, child: identity)
  }

  private var identity: HashableIdentity {
    switch child {
    case .element(let id): HashableIdentity(id)
    case .identity(let identity): identity
    }
  }
}

// MARK: - Lifting a child's effects

extension Effect {
  /// Lifts the effect of a navigated child into its parent's: every action is embedded with
  /// `embed`; every piece of work is registered under the child's key, so that cancelling the
  /// child cancels all of it, its own children's work included; and, when `dismissAction` is
  /// given, while the work runs `dismiss()` sends that action to the parent (see
  /// `DismissHandlers`).
  package func lifted<ParentAction: Sendable>(
    from child: NavigatedChild,
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismiss dismissAction: (@Sendable () -> ParentAction)?
  ) -> Effect<ParentAction> {
    if isNone { return .none }
    let lifted = liftedIntoParent(
      embed: embed,
      dismissing: dismissAction.map { (child.path, $0) }
    )
    return Effect<ParentAction>(
      box: Effect<ParentAction>.CancellableBox(child.key, cancelInFlight: false, lifted)
    )
  }

  /// Embeds every action with `embed` and, when `dismissal` is given, installs the dismissal of
  /// the feature at its path around every run: `dismiss()` there sends its action through the
  /// run's own ``Send``, so that a cancelled run dismisses nothing.
  package func liftedIntoParent<ParentAction: Sendable>(
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismissing dismissal: (path: NavigationIDPath, action: @Sendable () -> ParentAction)?
  ) -> Effect<ParentAction> {
    guard let (path, dismissAction) = dismissal else {
      return mappingActions(embed, wrappingEachRun: nil)
    }
    return mappingActions(
      embed,
      wrappingEachRun: { send, run in
        let handlers = DismissHandlers(path: path) { await send(dismissAction()) }
        try await DismissHandlers.$current.withValue(handlers) {
          try await run()
        }
      }
    )
  }

  /// An effect that cancels everything the navigated child `child` of `slot` started: a
  /// dismissed or replaced presentation.
  package static func cancelChild(_ child: HashableIdentity, in slot: NavigationIDPath) -> Self {
    Self(box: CancelBox(.navigation(slot: slot, child: child)))
  }
}
