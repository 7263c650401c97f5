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
    mappingActions(transform, wrappingEachRun: nil)
  }

  /// Transforms every action, and runs the work of every ``run(priority:operation:catch:fileID:filePath:line:column:)``
  /// inside `wrapRun`, when given, which receives the new effect's ``Send``: how a navigation
  /// operator installs a child's dismissal (`Effect.lifted(from:embed:dismiss:)`).
  ///
  /// Without `wrapRun` the mapped work calls the original directly: each wrapper is one more
  /// asynchronous frame in the work's task at every level of parents.
  func mappingActions<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    wrappingEachRun wrapRun: (
      @Sendable (Send<NewAction>, () async throws -> Void) async throws -> Void
    )?
  ) -> Effect<NewAction> {
    switch operation {
    case nil:
      return .none
    case .send(let send):
      return .send(transform(send.action))
    case .run(let run):
      let body = run.body
      let mappedBody: @Sendable (Send<NewAction>) async throws -> Void
      if let wrapRun {
        mappedBody = { send in
          try await wrapRun(send) {
            try await body(Send { send(transform($0)) })
          }
        }
      } else {
        mappedBody = { send in try await body(Send { send(transform($0)) }) }
      }
      return Effect<NewAction>(
        box: Effect<NewAction>.RunBox(
          priority: run.priority,
          environment: run.environment,
          body: mappedBody,
          location: run.location
        )
      )
    case .merge(let merge):
      return Effect<NewAction>(
        box: Effect<NewAction>.PartsBox(merging: Self.mapParts(merge.parts, transform, wrapRun))
      )
    case .concatenate(let concatenation):
      return Effect<NewAction>(
        box: Effect<NewAction>.PartsBox(
          concatenating: Self.mapParts(concatenation.parts, transform, wrapRun)
        )
      )
    case .cancellable(let cancellable):
      return Effect<NewAction>(
        box: Effect<NewAction>.CancellableBox(
          cancellable.key,
          cancelInFlight: cancellable.cancelInFlight,
          cancellable.effect.mappingActions(transform, wrappingEachRun: wrapRun)
        )
      )
    case .cancel(let cancel):
      return Effect<NewAction>(box: Effect<NewAction>.CancelBox(cancel.key))
    case .reconcile(let reconcile):
      return Effect<NewAction>(box: Effect<NewAction>.ReconcileBox(reconcile.reconciliation))
    }
  }

  /// The parts of a merge or a concatenation, each mapped.
  private static func mapParts<NewAction: Sendable>(
    _ parts: [EffectBox],
    _ transform: @escaping @Sendable (Action) -> NewAction,
    _ wrapRun: (@Sendable (Send<NewAction>, () async throws -> Void) async throws -> Void)?
  ) -> [EffectBox] {
    var mapped: [EffectBox] = []
    mapped.reserveCapacity(parts.count)
    for part in parts {
      // Mapping keeps every kind of effect but `.none`, which no part is.
      guard let box = Effect(box: part).mappingActions(transform, wrappingEachRun: wrapRun).box
      else {
        preconditionFailure("A part of a merge or concatenation mapped to no effect")
      }
      mapped.append(box)
    }
    return mapped
  }
}
