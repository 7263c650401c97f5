/// Where the running reducer is: the effects of its store, and its place among navigated
/// features.
///
/// The store binds it for each action and navigation operators narrow it for their children.
/// It is a task-local of its own rather than a dependency because it changes on every action a
/// stack element or a presentation receives: a change to `DependencyValues` copies its
/// storage, which cost more than a small feature's reducer. Effects capture it beside their
/// dependencies, so that cancellation identifiers and `dismiss()` mean the same inside an
/// effect as in the reducer that returned it.
package struct ReducerContext: Sendable {
  /// The effects of the store whose reducer is running, so that navigation operators can end
  /// the effects of children that have gone from the state; `nil` inside an effect.
  package var runtime: EffectRuntime?
  /// The navigated feature that is running, or `nil` for the root feature of a store.
  private var scope: NavigatedScope?
  /// The feature ``DismissEffect`` dismisses: the nearest one run by `forEach` or a
  /// presentation `ifLet`.
  private var dismissal = Dismissal.nothing

  private enum Dismissal: Sendable {
    case nothing
    /// The feature that is running, kept apart so that entering a child copies its scope once.
    case runningFeature
    case ancestor(NavigatedScope)
  }

  /// The context of a store's root feature.
  package init(runtime: EffectRuntime?) {
    self.runtime = runtime
  }

  /// The context outside any store.
  @TaskLocal package static var current = ReducerContext(runtime: nil)

  /// The navigation scope of the running reducer, which scopes its cancellation identifiers.
  package var navigationIDPath: NavigationIDPath {
    scope?.path ?? NavigationIDPath()
  }

  /// The scope that ``DismissEffect`` dismisses, or `nil` at the root of a store.
  package var dismissScope: NavigationIDPath? {
    switch dismissal {
    case .nothing: nil
    case .runningFeature: scope?.path
    case .ancestor(let feature): feature.path
    }
  }

  /// Whether this is the context outside any store: no runtime, no navigated feature.
  var isRoot: Bool {
    guard runtime == nil, scope == nil, case .nothing = dismissal else { return false }
    return true
  }

  /// The context of a navigated child: its own scope and, when its parent can dismiss it, the
  /// scope `dismiss()` ends.
  func entering(_ child: NavigatedScope, isDismissable: Bool) -> Self {
    var context = self
    if isDismissable {
      context.dismissal = .runningFeature
    } else if case .runningFeature = dismissal, let scope {
      context.dismissal = .ancestor(scope)
    }
    context.scope = child
    return context
  }

  /// What an effect created here keeps: the navigation, not the store's runtime.
  var escaping: Self {
    var context = self
    context.runtime = nil
    return context
  }
}
