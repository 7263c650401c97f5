public import Dependencies

/// Where the running code is: the effects of its store, and the navigated child it runs in.
/// The Composable Architecture keeps this in the dependencies (`navigationIDPath`, `dismiss`);
/// here it is a context of its own, because it changes on every action a stack element or a
/// presentation receives, and writing to `DependencyValues` copies its storage. One context,
/// kept in three places:
///
/// - **While a reducer runs**, on its thread (``current``): the store sets the root context
///   (``reduceAtRoot(_:into:action:runtime:dependencies:)``) and each navigation operator narrows
///   it for its child (``reduce(entering:slot:isDismissable:_:)``).
/// - **In an effect's run**, as the effect was created (`Effect.RunBox`).
/// - **Inside an effect**, in its task (``inTask``), bound by the task only where it differs
///   from what the task inherits (`EffectWalk.binding(for:)`).
///
/// Cancellation identifiers and `dismiss()` read the context, so they mean the same inside an
/// effect as in the reducer that returned it. Guarded by `ReducerContextTests`,
/// `DismissEffectTests` and `StoreTests`' dependency tests.
@usableFromInline
package struct ReducerContext: Sendable {
  /// The effects of the store whose reducer is running; `nil` inside an effect.
  package var runtime: EffectRuntime?
  /// The navigated child running, `nil` at a store's root.
  package private(set) var child: NavigatedChild?

  /// The context of a store's root feature.
  package init(runtime: EffectRuntime?) {
    self.runtime = runtime
  }

  /// The navigation path of the running feature, which its cancellation identifiers are in.
  package var navigationIDPath: NavigationIDPath {
    child?.path ?? NavigationIDPath()
  }

  /// The path of the feature ``DismissEffect`` dismisses, or `nil` at the root of a store.
  package var dismissedPath: NavigationIDPath? {
    child?.dismissed?.path
  }

  /// Whether no navigated child is running: a store's root feature, or code outside any store.
  var isRoot: Bool {
    child == nil
  }

  /// The context of the child `id` in the slot `slot` of the feature running in this one. When
  /// its parent can dismiss it (a stack element, a presentation), `dismiss()` dismisses the
  /// child; otherwise it dismisses what this feature dismisses.
  package func entering(
    _ id: HashableIdentity,
    slot: HashableIdentity,
    isDismissable: Bool
  ) -> Self {
    var context = self
    context.child = NavigatedChild(in: child, slot: slot, id: id, isDismissable: isDismissable)
    return context
  }

  // MARK: - A reducer: the thread's context

  /// The context of the running code: the one set on this thread while a reducer runs, and
  /// otherwise the task's.
  package static var current: ReducerContext {
    guard let running = reducing.value else { return inTask }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee
  }

  /// ``navigationIDPath`` of ``current``, read in place rather than by copying the context.
  @usableFromInline
  package static var currentNavigationIDPath: NavigationIDPath {
    guard let running = reducing.value else { return inTask.navigationIDPath }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee.navigationIDPath
  }

  /// The context of the reducer running on each thread, if any. A thread-specific pointer, not a
  /// task-local: a reducer runs synchronously, so the pointer is exact for exactly as long as it
  /// runs, where binding a task-local allocates on every child action.
  private static let reducing = ThreadLocalPointer()

  /// Runs a store's reducer in the store's root context, with the store's dependencies. Not
  /// isolated, so that its closures do not check their actor each time they are called.
  static func reduceAtRoot<State, Action>(
    _ reducer: any Reducer<State, Action>,
    into state: inout State,
    action: Action,
    runtime: EffectRuntime,
    dependencies: DependencyValues
  ) -> Effect<Action> {
    var effect = Effect<Action>.none
    withUnsafePointer(to: ReducerContext(runtime: runtime)) { root in
      reducing.withValue(root) {
        DependencyValues.$_current.withValue(dependencies) {
          effect = reducer.reduce(into: &state, action: action)
        }
      }
    }
    return effect
  }

  /// Runs `reduction`, the reducer of the child `id` of `slot`, synchronously in the child's
  /// context, and returns the child.
  func reduce(
    entering id: HashableIdentity,
    slot: HashableIdentity,
    isDismissable: Bool,
    _ reduction: () -> Void
  ) -> NavigatedChild {
    let context = entering(id, slot: slot, isDismissable: isDismissable)
    withUnsafePointer(to: context) { Self.reducing.withValue($0, reduction) }
    // The child was just set by `entering`.
    return context.child.unsafelyUnwrapped
  }

  // MARK: - An effect: the task's context

  /// The context of an effect's task, bound by the task to the one its effect was created in;
  /// the root context outside any effect.
  @TaskLocal package static var inTask = ReducerContext(runtime: nil)

  /// What a run keeps from where it is created: the dependencies and the context there, without
  /// the store's runtime, which the effect outlives. Not generic, so that `Effect.run` can be
  /// inlined into features.
  @usableFromInline
  static func forEffect() -> (DependencyValues, ReducerContext) {
    var context = current
    context.runtime = nil
    return (DependencyValues._current, context)
  }

  // MARK: - An action sent back from an effect

  /// Runs `send`, which delivers an action from an effect to its store, in the root task
  /// context.
  ///
  /// The action's reducers read their context from the thread as always; a task one of them
  /// starts by hand inherits the task's, and must get the root context, as a task started for
  /// an action from outside does, not the context of the feature that made the effect.
  static func sendingBackFromEffect(_ send: () -> Void) {
    guard !inTask.isRoot else { return send() }
    $inTask.withValue(ReducerContext(runtime: nil), operation: send)
  }
}

/// A stack element, a presentation or an optional child, as the runtime sees it while it runs:
/// the child it runs in, its slot there, itself, and which feature `dismiss()` dismisses.
///
/// From those it makes its navigation path (where its effects and children run), its slot's
/// path, and the key all of its work is registered under, when asked for: most actions start no
/// work and read none of them. A reference, so that a context copies cheaply.
package final class NavigatedChild: Sendable {
  /// The child this one runs in, `nil` for a child of a store's root feature.
  let outer: NavigatedChild?
  /// The stack, presentation or optional child of the parent it is in (`HashableIdentity.slot`).
  let slot: HashableIdentity
  /// The child in its slot: a stack element's ID, or the identity of what is presented.
  let id: HashableIdentity
  /// Whether its parent can dismiss it: a stack element or a presentation.
  private let isDismissable: Bool

  init(in outer: NavigatedChild?, slot: HashableIdentity, id: HashableIdentity, isDismissable: Bool)
  {
    self.outer = outer
    self.slot = slot
    self.id = id
    self.isDismissable = isDismissable
  }

  /// The child's own navigation path: its parent's, its slot, and itself.
  package var path: NavigationIDPath {
    parentPath.appending(slot: slot, child: id)
  }

  /// The path of the child's slot: its parent's path and the slot.
  package var slotPath: NavigationIDPath {
    parentPath.appending(identity: slot)
  }

  /// The key all of the child's work is registered under: its identity, at its slot's path.
  var key: CancellationKey {
    .navigation(slot: slotPath, child: id)
  }

  /// The feature `dismiss()` dismisses while this child runs: itself when its parent can
  /// dismiss it; otherwise what the child it runs in dismisses.
  var dismissed: NavigatedChild? {
    isDismissable ? self : outer?.dismissed
  }

  private var parentPath: NavigationIDPath {
    outer?.path ?? NavigationIDPath()
  }
}
