package import ConcurrencyExtras
import Dependencies

extension Effect {
  /// An effect taken apart one level, in plain values: what an interpreter of effects reads.
  ///
  /// For a plain store and plain operators written outside the core, the reference ones that
  /// `NavigationPropertyTests` checks the core against; ``init(parts:)`` puts an effect back
  /// together. The core's own interpreter reads ``operation`` (`EffectWalk`).
  package enum Parts {
    /// Sends the action back into the store at once.
    case send(Action)
    /// Runs work, which binds the dependencies and the navigation context the effect was made
    /// in.
    case run(@Sendable (Send<Action>) async throws -> Void)
    /// Runs the effects at the same time.
    case merge([Effect])
    /// Runs the effects one after the other.
    case concatenate([Effect])
    /// Cancels what runs under the key when `cancelInFlight` is set, then runs the effect
    /// cancellable under the key: ``cancel(id:)`` is ``none`` that cancels in flight.
    case cancellable(CancelKey, cancelInFlight: Bool, Effect)
  }

  /// The effect taken apart one level, or `nil` for ``none``.
  package var parts: Parts? {
    switch operation {
    case nil:
      return nil
    case .send(let send):
      return .send(send.action)
    case .run(let run):
      return .run { send in
        try await DependencyValues.$_current.withValue(run.dependencies) {
          try await ReducerContext.$inTask.withValue(run.context) {
            try await run.body(send)
          }
        }
      }
    case .merge(let merge):
      return .merge(merge.parts.map(Effect.init(box:)))
    case .concatenate(let concatenation):
      return .concatenate(concatenation.parts.map(Effect.init(box:)))
    case .cancellable(let cancellable):
      return .cancellable(
        CancelKey(cancellable.key),
        cancelInFlight: cancellable.cancelInFlight,
        cancellable.effect
      )
    }
  }

  /// An effect put together from its parts; a run's work binds the dependencies and the context
  /// where this is called, around what its own work binds.
  package init(parts: Parts) {
    switch parts {
    case .send(let action):
      self = .send(action)
    case .run(let work):
      self = .run(operation: work)
    case .merge(let effects):
      self = .merge(effects)
    case .concatenate(let effects):
      self = .concatenate(effects)
    case .cancellable(let key, let cancelInFlight, let effect):
      self.init(box: CancellableBox(key.key, cancelInFlight: cancelInFlight, effect))
    }
  }
}

/// A cancellation key in plain values: an identifier, and the navigation path of the feature
/// that made it (``NavigationContext/path``). Part of ``Effect/Parts``.
package struct CancelKey: Hashable, Sendable {
  let key: CancellationKey

  init(_ key: CancellationKey) {
    self.key = key
  }

  /// The identifier.
  package var id: AnyHashableSendable {
    AnyHashableSendable(key.id.base)
  }

  /// The navigation path of the feature that made it, root first.
  package var path: [AnyHashableSendable] {
    key.path.components.map { AnyHashableSendable($0.base) }
  }
}
