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

  /// Transforms every action, and runs the work of every
  /// ``run(priority:operation:catch:fileID:filePath:line:column:)`` inside `wrapRun`, when given,
  /// which receives the new effect's ``Send``: how a navigation operator installs a child's
  /// dismissal (``lifted(from:embed:dismiss:)``).
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
          dependencies: run.dependencies,
          context: run.context,
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

// MARK: - A navigated child's work

extension Effect {
  /// Lifts the effect of a navigated child into its parent's: every action is embedded with
  /// `embed`; every piece of work is registered under the child's key, so that cancelling the
  /// child cancels all of it, its own children's work included; and, when `dismissAction` is
  /// given, `dismiss()` in that work sends it to the parent through the work's own ``Send``, so
  /// that a cancelled run dismisses nothing (see ``DismissHandlers``).
  func lifted<ParentAction: Sendable>(
    from child: NavigatedChild,
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismiss dismissAction: (@Sendable () -> ParentAction)?
  ) -> Effect<ParentAction> {
    let wrapRun = dismissAction.map { dismissAction in
      let path = child.path
      return { @Sendable (send: Send<ParentAction>, run: () async throws -> Void) in
        let handlers = DismissHandlers(path: path) { await send(dismissAction()) }
        try await DismissHandlers.$current.withValue(handlers) {
          try await run()
        }
      }
    }
    let lifted = mappingActions(embed, wrappingEachRun: wrapRun)
    return Effect<ParentAction>(
      box: Effect<ParentAction>.CancellableBox(child.key, cancelInFlight: false, lifted)
    )
  }

  /// An effect that cancels everything the child `child` of the slot at `slotPath` started: a
  /// popped element, a dismissed or replaced presentation.
  static func cancelChild(_ child: HashableIdentity, in slotPath: NavigationIDPath) -> Self {
    Self(
      box: CancellableBox(.navigation(slot: slotPath, child: child), cancelInFlight: true, .none))
  }
}

/// The dismissals available to the running effect, innermost first: a navigation operator
/// installs one around each run of its child's work (``Effect/lifted(from:embed:dismiss:)``),
/// and ``DismissEffect`` calls the one for the feature it dismisses.
///
/// A task-local list rather than the `dismiss` dependency, as the Composable Architecture sets
/// it: writing `DependencyValues` copies its storage on every run. Every run of a navigated
/// child pushes one node, one allocation; a lookup happens only when a feature dismisses itself.
final class DismissHandlers: Sendable {
  @TaskLocal static var current: DismissHandlers?

  /// The path of the feature this dismisses.
  let path: NavigationIDPath
  let dismiss: @Sendable () async -> Void
  let outer: DismissHandlers?

  init(path: NavigationIDPath, dismiss: @escaping @Sendable () async -> Void) {
    self.path = path
    self.dismiss = dismiss
    self.outer = Self.current
  }

  /// The dismissal of the feature at `path`, if the running effect belongs to it.
  static func handler(for path: NavigationIDPath) -> (@Sendable () async -> Void)? {
    var node = current
    while let handlers = node {
      if handlers.path == path { return handlers.dismiss }
      node = handlers.outer
    }
    return nil
  }
}
