/// Where the running reducer is: the effects of its store, and its place among navigated
/// features.
///
/// The store sets it for each action and navigation operators narrow it for their children.
/// It is a context of its own rather than a dependency because it changes on every action a
/// stack element or a presentation receives: a change to `DependencyValues` copies its
/// storage, which cost more than a small feature's reducer. Effects capture it beside their
/// dependencies, so that cancellation identifiers and `dismiss()` mean the same inside an
/// effect as in the reducer that returned it.
@usableFromInline
package struct ReducerContext: Sendable {
  /// The effects of the store whose reducer is running, so that navigation operators can end
  /// the effects of children that have gone from the state; `nil` inside an effect.
  package var runtime: EffectRuntime?
  /// The navigated feature that is running, or `nil` for the root feature of a store.
  ///
  /// NB: A reference, so that the context copies as two retains: each read of the current
  /// context copies it, and so does each effect that keeps it. A scope held inline went through
  /// the scope's witnesses on each copy, which cost more than the one allocation per child
  /// action that the reference costs (measured when the context was also copied into and out of
  /// a task-local for each child action).
  private var feature: RunningFeature?

  fileprivate final class RunningFeature: Sendable {
    let scope: NavigatedScope
    /// The feature ``DismissEffect`` dismisses: the nearest one run by `forEach` or a
    /// presentation `ifLet`.
    let dismissal: Dismissal

    init(scope: NavigatedScope, dismissal: Dismissal) {
      self.scope = scope
      self.dismissal = dismissal
    }
  }

  fileprivate enum Dismissal: Sendable {
    case nothing
    /// The feature itself.
    case runningFeature
    case ancestor(RunningFeature)
  }

  /// The context of a store's root feature.
  package init(runtime: EffectRuntime?) {
    self.runtime = runtime
  }

  /// The context of the running reducer: the one its store or navigation operator set on this
  /// thread while the reducer runs or, outside any reducer, the one the task carries (an
  /// effect's).
  ///
  /// NB: A job that runs on the same thread while a reducer runs (in a run loop the reducer
  /// spins, which nothing here does) would see the reducer's context.
  package static var current: ReducerContext {
    guard let running = reducing.value else { return ofTask }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee
  }

  /// The navigation scope of the running reducer (``navigationIDPath`` of ``current``).
  ///
  /// NB: Read in place, without copying the whole context out of its thread's slot and
  /// releasing it again: every cancellation identifier an effect is made with reads it.
  @usableFromInline
  package static var currentNavigationIDPath: NavigationIDPath {
    guard let running = reducing.value else { return ofTask.navigationIDPath }
    return running.assumingMemoryBound(to: ReducerContext.self).pointee.navigationIDPath
  }

  /// The context an effect's task runs with, the one it captured where it was created; the
  /// context outside any store elsewhere.
  @TaskLocal package static var ofTask = ReducerContext(runtime: nil)

  /// Where the context of the reducer running on a thread is.
  ///
  /// NB: Not a task-local: a reducer runs synchronously, so its context belongs to its thread
  /// for exactly as long as it runs. Binding a task-local costs the runtime an allocation and a
  /// look at the task's status records on every push, and a stack element's action took three.
  private static let reducing = ThreadLocalPointer()

  /// Runs `reduction`, synchronously, with this as the current context.
  func run(_ reduction: () -> Void) {
    withUnsafePointer(to: self) { Self.reducing.withValue($0, reduction) }
  }

  /// The navigation scope of the running reducer, which scopes its cancellation identifiers.
  package var navigationIDPath: NavigationIDPath {
    feature?.scope.path ?? NavigationIDPath()
  }

  /// The scope that ``DismissEffect`` dismisses, or `nil` at the root of a store.
  package var dismissScope: NavigationIDPath? {
    guard let feature else { return nil }
    switch feature.dismissal {
    case .nothing: return nil
    case .runningFeature: return feature.scope.path
    case .ancestor(let ancestor): return ancestor.scope.path
    }
  }

  /// Whether this is the context outside any store: no runtime, no navigated feature.
  var isRoot: Bool {
    runtime == nil && feature == nil
  }

  /// The context of a navigated child: its own scope and, when its parent can dismiss it, the
  /// scope `dismiss()` ends.
  func entering(_ child: NavigatedScope, isDismissable: Bool) -> Self {
    var context = self
    context.feature = RunningFeature(
      scope: child,
      dismissal: isDismissable ? .runningFeature : inheritedDismissal
    )
    return context
  }

  /// What a child its parent cannot dismiss dismisses: what this feature dismisses, naming
  /// this feature when that is the one.
  private var inheritedDismissal: Dismissal {
    guard let feature else { return .nothing }
    if case .runningFeature = feature.dismissal { return .ancestor(feature) }
    return feature.dismissal
  }

  /// What an effect created here keeps: the navigation, not the store's runtime.
  var escaping: Escaped {
    Escaped(feature: feature)
  }

  /// The context an effect restores in its task: the one it was created in, without its store's
  /// runtime (an effect outlives the reduction, and its task is given the runtime it runs on).
  ///
  /// NB: One reference, where a context is two, so that the box of every `Effect.run`, which
  /// keeps one, stays within the allocator's fast size classes (see `Effect.RunBox`).
  struct Escaped: Sendable {
    fileprivate let feature: RunningFeature?

    /// Whether it is the context outside any store, which a task has unless it binds or
    /// inherits another.
    var isRoot: Bool {
      feature == nil
    }
  }

  /// The context an effect kept where it was created.
  init(_ escaped: Escaped) {
    self.runtime = nil
    self.feature = escaped.feature
  }
}
