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
  ///
  /// NB: The parts of a merge or a concatenation, and a cancellable part's effect, are mapped
  /// in this same call rather than by calling `map` on each. Unspecialised, each call looks up
  /// the metadata of the operations and runs of both action types, some 1,300 instructions, and
  /// a feature's effects are mapped once for every level of its parents.
  func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction,
    wrapBody: @escaping @Sendable (Send<NewAction>, () async throws -> Void) async throws -> Void
  ) -> Effect<NewAction> {
    let parts: [Self]?
    switch operation {
    case .merge(let effects), .concatenate(let effects):
      parts = effects
    default:
      parts = nil
    }
    var mappedParts: [Effect<NewAction>] = []
    mappedParts.reserveCapacity(parts?.count ?? 0)
    var mapped = Effect<NewAction>.none
    for index in 0..<(parts?.count ?? 1) {
      var effect = if let parts { parts[index] } else { self }
      var cancellation: (key: CancellationKey, cancelInFlight: Bool)?
      if case .cancellable(let key, let cancelInFlight, let inner) = effect.operation {
        cancellation = (key, cancelInFlight)
        effect = inner
      }
      switch effect.operation {
      case .none:
        mapped = .none
      case .send(let action):
        mapped = .send(transform(action))
      case .run(let run):
        let body = run.body
        mapped = Effect<NewAction>(
          operation: .run(
            Effect<NewAction>.Run(
              priority: run.priority,
              environment: run.environment,
              body: { send in
                try await wrapBody(send) {
                  try await body(Send { send(transform($0)) })
                }
              },
              location: run.location
            )
          )
        )
      case .merge, .concatenate, .cancellable:
        mapped = effect.map(transform, wrapBody: wrapBody)
      case .cancel(let key):
        mapped = Effect<NewAction>(operation: .cancel(key))
      case .reconcile(let reconciliation):
        mapped = Effect<NewAction>(operation: .reconcile(reconciliation))
      }
      if let cancellation {
        mapped = Effect<NewAction>(
          operation: .cancellable(
            cancellation.key,
            cancelInFlight: cancellation.cancelInFlight,
            mapped
          )
        )
      }
      if parts != nil {
        mappedParts.append(mapped)
      }
    }
    switch operation {
    case .merge:
      return Effect<NewAction>(merging: mappedParts)
    case .concatenate:
      return Effect<NewAction>(operation: .concatenate(mappedParts))
    default:
      return mapped
    }
  }
}
