package import Dependencies

/// Where the running code is: the effects of its store, and its place among navigated features.
/// The Composable Architecture keeps this in the dependencies (`navigationIDPath`, `dismiss`);
/// here it is a context of its own, because it changes on every action a stack element or a
/// presentation receives, and writing to `DependencyValues` copies its storage. One context,
/// kept in three places:
///
/// - **While a reducer runs**, on its thread (``current``): the store sets the root context
///   (``reduceAtRoot(_:into:action:runtime:dependencies:)``) and each navigation operator narrows
///   it for its child (``reduce(entering:isDismissable:_:)``).
/// - **In an effect's box**, as the effect was created (``EffectEnvironment``).
/// - **Inside an effect**, in its task (``inTask``), bound by the task only where it differs
///   from what the task inherits (`TaskInheritance`).
///
/// Cancellation identifiers and `dismiss()` read the context, so they mean the same inside an
/// effect as in the reducer that returned it. Guarded by `ReducerContextTests`,
/// `DismissEffectTests` and `StoreTests`' dependency tests.
@usableFromInline
package struct ReducerContext: Sendable {
  /// The effects of the store whose reducer is running; `nil` inside an effect.
  package var runtime: EffectRuntime?
  /// The navigated feature running, `nil` at a store's root: a reference, so copies are cheap.
  private var feature: RunningFeature?

  private final class RunningFeature: Sendable {
    let child: NavigatedChild
    let dismissTarget: DismissTarget

    init(child: NavigatedChild, dismissTarget: DismissTarget) {
      self.child = child
      self.dismissTarget = dismissTarget
    }
  }

  /// The feature `dismiss()` dismisses: the nearest one that `forEach` or a presentation `ifLet`
  /// runs. Kept as the feature, not its path, so that the path is built only when asked for.
  private enum DismissTarget: Sendable {
    case nothing
    case runningFeature
    case ancestor(RunningFeature)
  }

  /// The context of a store's root feature.
  package init(runtime: EffectRuntime?) {
    self.runtime = runtime
  }

  /// The navigation path of the running feature, which its cancellation identifiers are in.
  package var navigationIDPath: NavigationIDPath {
    feature?.child.path ?? NavigationIDPath()
  }

  /// The path of the feature ``DismissEffect`` dismisses, or `nil` at the root of a store.
  package var dismissedPath: NavigationIDPath? {
    guard let feature else { return nil }
    switch feature.dismissTarget {
    case .nothing: return nil
    case .runningFeature: return feature.child.path
    case .ancestor(let ancestor): return ancestor.child.path
    }
  }

  /// Whether no navigated feature is running: a store's root feature, or code outside any store.
  var isRoot: Bool {
    feature == nil
  }

  /// The context of `child`, a child of the feature running in this one. When its parent can
  /// dismiss it (a stack element, a presentation), `dismiss()` dismisses the child; otherwise
  /// it dismisses what this feature dismisses.
  package func entering(_ child: NavigatedChild, isDismissable: Bool) -> Self {
    var context = self
    context.feature = RunningFeature(
      child: child,
      dismissTarget: isDismissable ? .runningFeature : inheritedDismissTarget
    )
    return context
  }

  /// What a child its parent cannot dismiss dismisses: what this feature dismisses.
  private var inheritedDismissTarget: DismissTarget {
    guard let feature else { return .nothing }
    if case .runningFeature = feature.dismissTarget { return .ancestor(feature) }
    return feature.dismissTarget
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

  /// Runs `reduction`, a navigated child's reducer, synchronously in the child's context.
  func reduce(entering child: NavigatedChild, isDismissable: Bool, _ reduction: () -> Void) {
    withUnsafePointer(to: entering(child, isDismissable: isDismissable)) {
      Self.reducing.withValue($0, reduction)
    }
  }

  // MARK: - An effect: the task's context

  /// The context of an effect's task, bound by the task to the one its effect was created in;
  /// the root context outside any effect.
  @TaskLocal package static var inTask = ReducerContext(runtime: nil)

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

/// What a run carries from the reducer that returned it to the task that runs it: the
/// dependencies and the reducer context in effect there, without the store's runtime, which the
/// effect outlives.
///
/// Captured by one call that is not generic, so that `Effect.run` can be inlined into features.
@usableFromInline
package struct EffectEnvironment: Sendable {
  package let dependencies: DependencyValues
  package let context: ReducerContext

  /// The environment of the running code.
  @usableFromInline
  static func current() -> Self {
    var context = ReducerContext.current
    context.runtime = nil
    return Self(dependencies: DependencyValues._current, context: context)
  }
}
