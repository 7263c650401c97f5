extension Effect {
  /// Transforms every action the effect sends.
  ///
  /// This is how a parent lifts a child's effects into its own actions; ``Scope`` and the
  /// navigation operators do it for you.
  ///
  /// ```swift
  /// return childEffect.map { Action.child($0) }
  /// ```
  ///
  /// - Parameter transform: Turns an action of this effect into an action of the new one.
  /// - Returns: An effect that sends transformed actions.
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    map(transform) { _, body in try await body() }
  }

  /// Transforms every action, and wraps the work of every ``run(priority:operation:catch:fileID:filePath:line:column:)``
  /// in `wrapBody`, which receives the new effect's ``Send``.
  func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    wrapBody: @escaping @Sendable (Send<NewAction>, () async throws -> Void) async throws -> Void
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      return Effect<NewAction>(
        operation: .run(
          Effect<NewAction>.Run(
            priority: run.priority,
            dependencies: run.dependencies,
            context: run.context,
            body: { send in
              try await wrapBody(send) {
                try await run.body(Send { send(transform($0)) })
              }
            },
            location: run.location
          )
        )
      )
    case .merge(let effects):
      return Effect<NewAction>(
        operation: .merge(effects.map { $0.map(transform, wrapBody: wrapBody) })
      )
    case .concatenate(let effects):
      return Effect<NewAction>(
        operation: .concatenate(effects.map { $0.map(transform, wrapBody: wrapBody) })
      )
    case .cancellable(let key, let cancelInFlight, let effect):
      return Effect<NewAction>(
        operation: .cancellable(
          key,
          cancelInFlight: cancelInFlight,
          effect.map(transform, wrapBody: wrapBody)
        )
      )
    case .cancel(let key):
      return Effect<NewAction>(operation: .cancel(key))
    case .reconcile(let reconciliation):
      return Effect<NewAction>(operation: .reconcile(reconciliation))
    }
  }
}
