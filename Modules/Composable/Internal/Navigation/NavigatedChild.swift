public import CasePaths

// A navigated child — a stack element, a presentation, an optional child — as the navigation
// operators see it: the runner they share, the child's place (`NavigatedScope`), how its effects
// are lifted into the parent's (`Effect.navigated`, with the dismissal it installs), and the key
// all of its work is registered under.

/// What an action asks of a navigation operator's child, without its payload.
///
/// One type for the three operators, so that the closure that works it out has the same type
/// in the operator that builds it as in the runner that keeps it (a type parameter would make
/// the runner wrap it in a thunk, allocated with every operator).
@usableFromInline
enum NavigationRequest {
  /// An action of the stack element with the ID.
  case element(StackElementID)
  /// A push of a stack element with the ID.
  case push(StackElementID)
  /// A pop of the stack element with the ID and of every element above it.
  case popFrom(StackElementID)
  /// An action of the presented or optional child.
  case child
  /// The dismissal of the presented child.
  case dismiss
}

/// Runs the child of a navigation operator — a stack element (`forEach`), a presentation
/// (`ifLet` on `PresentationState`) or an optional child (`ifLet` on an optional) — in the
/// child's own reducer context, and lifts its effects into the parent's: the steps the three
/// operators share.
///
/// An operator asks two things of every action that reaches it: what it asks of the child
/// (``request``: an element action, a pop, a dismissal…), and, for the child's own actions, to
/// run the child's reducer on the child's state in place (``reduce(_:in:state:action:child:lift:)``).
/// Both extract a case from the parent's action and reach into the parent's state. Compiled
/// once for all types, as the operators' methods are, that looks up the metadata of the optional
/// child action, its payload and the state's containers on every action through the operator,
/// the child's or not, which costs more than a small child reducer. So the two are closures
/// built by the operator's inlinable initialiser, where the feature writes the operator, and
/// compiled there for the feature's concrete types. They are handed what they work on (the
/// child reducer and the runner's paths) rather than capturing it, so that building them
/// allocates nothing, and the child's effect comes out through an `inout` argument, so that the
/// closures are not generic over their result.
///
/// Every field has the same layout for all types, and the methods are inlined into the
/// operator, so that running a child looks up no metadata either. Guarded by
/// `Benchmarks/instruction-counts` (element send, sheet screen) and `NavigationCostTests`.
@usableFromInline
struct NavigatedChildRunner<
  ParentState, ParentAction: Sendable, Child: Reducer, ChildState, ChildAction
> {
  /// What the action asks of the child, if it is one of the operator's actions; called with the
  /// operator's ``toAction``.
  @usableFromInline
  typealias Request = (AnyCasePath<ParentAction, ChildAction>, ParentAction) -> NavigationRequest?

  /// Runs `child` for the child action in the action, on the child's state reached through the
  /// key path, setting the effect; returns whether the child was there.
  @usableFromInline
  typealias ReduceChild = (
    Child,
    WritableKeyPath<ParentState, ChildState>,
    AnyCasePath<ParentAction, ChildAction>,
    inout ParentState,
    ParentAction,
    inout Effect<Child.Action>
  ) -> Bool

  /// The child's state in the parent's: a stack, a presentation or an optional.
  let toState: WritableKeyPath<ParentState, ChildState>
  /// The operator's actions in the parent's.
  let toAction: AnyCasePath<ParentAction, ChildAction>
  /// The identity of the operator's ``NavigationSlot``, built once: a key path is not trivial,
  /// so each identity made of one would allocate.
  let slot: HashableIdentity
  /// Whether `dismiss()` in the child dismisses it (stack elements and presentations), or
  /// what its parent dismisses (optional children, which their parent owns).
  let isDismissable: Bool
  /// What an action asks of the child: `runner.request(runner.toAction, action)`.
  let request: Request
  private let reduceChild: ReduceChild

  init(
    toState: WritableKeyPath<ParentState, ChildState>,
    toAction: AnyCasePath<ParentAction, ChildAction>,
    slot: NavigationSlot.Kind,
    isDismissable: Bool,
    request: @escaping Request,
    reduceChild: @escaping ReduceChild
  ) {
    self.toState = toState
    self.toAction = toAction
    self.slot = HashableIdentity(NavigationSlot(slot, toState))
    self.isDismissable = isDismissable
    self.request = request
    self.reduceChild = reduceChild
  }

  /// The path of the operator's slot where the parent runs: each child's scope is this path and
  /// the child.
  @inline(__always)
  func slotPath(in context: ReducerContext) -> NavigationIDPath {
    context.navigationIDPath.appending(identity: slot)
  }

  /// The scope of the child `child` of the slot, where the parent runs in `context`.
  @inline(__always)
  func scope(of child: HashableIdentity, in context: ReducerContext) -> NavigatedScope {
    NavigatedScope(parent: context.navigationIDPath, slot: slot, child: child)
  }

  /// Runs `child` in the child's context for the child action in `action`, and returns whether
  /// the child was there and its effect, lifted by `lift` when there is one.
  ///
  /// - Parameters:
  ///   - scope: The child's place (``scope(of:in:)``, or a stack element's).
  ///   - context: The parent's context.
  ///   - state: The parent's state.
  ///   - action: The parent's action, one of the child's.
  ///   - child: The child's reducer.
  ///   - lift: Lifts the child's effect into the parent's; called only for an effect that does
  ///     something, so that its closures are built only then.
  @inline(__always)
  func reduce(
    _ scope: NavigatedScope,
    in context: ReducerContext,
    state: inout ParentState,
    action: ParentAction,
    child: Child,
    lift: (Effect<Child.Action>) -> Effect<ParentAction>
  ) -> (isPresent: Bool, effect: Effect<ParentAction>) {
    var effect = Effect<Child.Action>.none
    var isPresent = false
    let (reduceChild, toState, toAction) = (reduceChild, toState, toAction)
    context.reduce(entering: scope, isDismissable: isDismissable) {
      isPresent = reduceChild(child, toState, toAction, &state, action, &effect)
    }
    guard !effect.isNone else { return (isPresent, .none) }
    return (isPresent, lift(effect))
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

  /// The path of the child's slot: the parent's path and the stack or presentation the child
  /// is in, as ``NavigatedChildRunner/slotPath(in:)`` makes it.
  package var slotPath: NavigationIDPath {
    parent.appending(identity: navigationSlot)
  }

  /// The key all of the child's work is registered under.
  var key: CancellationKey {
    .navigation(slot: slotPath, child: childIdentity)
  }

  private var childIdentity: HashableIdentity {
    switch child {
    case .element(let id): HashableIdentity(id)
    case .identity(let identity): identity
    }
  }
}

// MARK: - Lifting a child's effects

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

  /// An effect that cancels everything the navigated child `child` of `slot` started: a
  /// dismissed presentation.
  package static func cancelChild(_ child: HashableIdentity, in slot: NavigationIDPath) -> Self {
    Self(box: CancelBox(.navigation(slot: slot, child: child)))
  }
}

/// The dismissals available to the running effect, innermost first, installed by the
/// navigation operators around their children's effects.
///
/// A list rather than a dictionary: every effect of a navigated child pushes one, and a node
/// costs one allocation where a copied dictionary costs its storage and a hash of the path;
/// looking one up happens only when a feature dismisses itself.
final class DismissHandlers: Sendable {
  @TaskLocal static var current: DismissHandlers?

  let scope: NavigationIDPath
  let dismiss: @Sendable () async -> Void
  let outer: DismissHandlers?

  init(scope: NavigationIDPath, dismiss: @escaping @Sendable () async -> Void) {
    self.scope = scope
    self.dismiss = dismiss
    self.outer = Self.current
  }

  /// The dismissal of the feature at `scope`, if the running effect belongs to it.
  static func handler(for scope: NavigationIDPath) -> (@Sendable () async -> Void)? {
    var node = current
    while let handlers = node {
      if handlers.scope == scope { return handlers.dismiss }
      node = handlers.outer
    }
    return nil
  }
}

// MARK: - The key of a child's work

extension CancellationKey {
  /// The key of all the work of the child `child` of the navigation slot `slot`.
  package static func navigation(slot: NavigationIDPath, child: HashableIdentity) -> Self {
    Self(id: NavigatedChild(child: child), path: slot)
  }

  /// Whether this is a navigated child's key.
  var isNavigation: Bool {
    id.holds(NavigatedChild.self)
  }

  /// The child whose work the key covers, when it is a navigated child's key.
  var navigatedChild: HashableIdentity? {
    guard isNavigation else { return nil }
    return id.value(as: NavigatedChild.self)?.child
  }
}

/// The identifier of a navigated child's key.
struct NavigatedChild: Hashable, Sendable, CustomStringConvertible {
  let child: HashableIdentity

  var description: String {
    "child \(child)"
  }
}
