extension Effect {
  /// Lifts the effects of a navigated child (a stack element or a presented destination) into
  /// its parent.
  ///
  /// Every action is embedded with `embed`; every piece of work is registered under the
  /// child's navigation scope, so that cancelling the scope stops all of it, including the work
  /// of the child's own children; and while the work runs, the child's `dismiss` dependency
  /// (a ``DismissEffect`` for `scope`, set while the child reduced) sends `dismissAction` to
  /// the parent.
  package func navigated<ParentAction: Sendable>(
    in scope: NavigationIDPath,
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismiss dismissAction: @escaping @Sendable () -> ParentAction
  ) -> Effect<ParentAction> {
    if case .none = operation { return .none }
    let lifted = map(embed) { send, body in
      var handlers = DismissHandlers.current
      handlers[scope] = { await send(dismissAction()) }
      try await DismissHandlers.$current.withValue(handlers) {
        try await body()
      }
    }
    return Effect<ParentAction>(
      operation: .cancellable(.navigationScope(scope), cancelInFlight: false, lifted)
    )
  }

  /// An effect that cancels the navigation scopes directly under `parent` whose last
  /// component `keeping` rejects: the elements that left a stack.
  package static func cancelNavigationScopes(
    under parent: NavigationIDPath,
    keeping: @escaping @Sendable (HashableIdentity) -> Bool
  ) -> Self {
    Self(operation: .cancelScopes(under: parent, keeping: keeping))
  }

  /// An effect that cancels everything a navigated child started: a dismissed presentation.
  package static func cancelNavigationScope(_ scope: NavigationIDPath) -> Self {
    Self(operation: .cancel(.navigationScope(scope)))
  }
}

/// The cancellation identifier under which a navigation operator registers all the work of one
/// child.
package struct NavigationScope: Hashable, Sendable {}

extension CancellationKey {
  package static func navigationScope(_ scope: NavigationIDPath) -> Self {
    Self(id: NavigationScope(), path: scope)
  }
}
