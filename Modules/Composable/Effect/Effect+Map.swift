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
    map(transform, wrapBody: nil)
  }

  /// Transforms every action, and wraps the work of every ``run(priority:operation:catch:fileID:filePath:line:column:)``
  /// in `wrapBody`, when given, which receives the new effect's ``Send``.
  ///
  /// NB: Without `wrapBody` the mapped work calls the child's work directly rather than through
  /// an identity wrapper, which cost two more asynchronous frames at each level of parents in the
  /// work's task: enough to push the work of a navigated child's effect out of its task's first
  /// 984-byte block of memory.
  func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    wrapBody: (@Sendable (Send<NewAction>, () async throws -> Void) async throws -> Void)?
  ) -> Effect<NewAction> {
    guard let box else { return .none }
    switch box.kind {
    case .send:
      return .send(transform(unsafeDowncast(box, to: SendBox.self).action))
    case .run:
      let run = unsafeDowncast(box, to: RunBox.self)
      let body = run.body
      let mappedBody: @Sendable (Send<NewAction>) async throws -> Void
      if let wrapBody {
        mappedBody = { send in
          try await wrapBody(send) {
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
    case .merge, .concatenate:
      let parts = unsafeDowncast(box, to: PartsBox.self).parts
      var mapped: [EffectBox] = []
      mapped.reserveCapacity(parts.count)
      for part in parts {
        // NB: Mapping keeps every kind of effect but `.none`, which no part is.
        guard let box = Effect(box: part).map(transform, wrapBody: wrapBody).box else {
          preconditionFailure("A part of a merge or concatenation mapped to no effect")
        }
        mapped.append(box)
      }
      return Effect<NewAction>(
        box: box.kind == .merge
          ? Effect<NewAction>.PartsBox(merging: mapped)
          : Effect<NewAction>.PartsBox(concatenating: mapped)
      )
    case .cancellable:
      let cancellable = unsafeDowncast(box, to: CancellableBox.self)
      return Effect<NewAction>(
        box: Effect<NewAction>.CancellableBox(
          cancellable.key,
          cancelInFlight: cancellable.cancelInFlight,
          cancellable.effect.map(transform, wrapBody: wrapBody)
        )
      )
    case .cancel:
      return Effect<NewAction>(
        box: Effect<NewAction>.CancelBox(unsafeDowncast(box, to: CancelBox.self).key)
      )
    case .reconcile:
      return Effect<NewAction>(
        box: Effect<NewAction>.ReconcileBox(
          unsafeDowncast(box, to: ReconcileBox.self).reconciliation
        )
      )
    }
  }
}
