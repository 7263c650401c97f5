public import CasePaths

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
/// (``request(in:)``: an element action, a pop, a dismissal…), and, for the child's own actions,
/// to run the child's reducer on the child's state in place (``reduce(_:in:state:action:child:lift:)``).
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
  /// What the action asks of the child, if it is one of the operator's actions.
  @usableFromInline
  typealias Classify = (AnyCasePath<ParentAction, ChildAction>, ParentAction) -> NavigationRequest?

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
  private let classify: Classify
  private let reduceChild: ReduceChild

  init(
    toState: WritableKeyPath<ParentState, ChildState>,
    toAction: AnyCasePath<ParentAction, ChildAction>,
    slot: NavigationSlot.Kind,
    isDismissable: Bool,
    classify: @escaping Classify,
    reduceChild: @escaping ReduceChild
  ) {
    self.toState = toState
    self.toAction = toAction
    self.slot = HashableIdentity(NavigationSlot(slot, toState))
    self.isDismissable = isDismissable
    self.classify = classify
    self.reduceChild = reduceChild
  }

  /// What `action` asks of the child, if it is one of the operator's actions.
  @inline(__always)
  func request(in action: ParentAction) -> NavigationRequest? {
    classify(toAction, action)
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
    context.entering(scope, isDismissable: isDismissable).reduce {
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
