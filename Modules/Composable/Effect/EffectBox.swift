/// The box an effect keeps its operation in: the base of one final class for each kind of
/// operation, opened only through ``Effect/operation``.
///
/// Invariant: only `Effect.SendBox` has a field whose layout depends on the action. Every other
/// box, and an effect itself, has the same layout for every action, so that the store and the
/// operators, which run unspecialised, copy, read and release effects without looking up the
/// action's type metadata. (An enum of the operations, generic over the action, would be handled
/// through that metadata at every step.) The base is outside `Effect`, where it would be generic
/// over the action, so that a merge keeps its parts in an array of one type for every action.
/// Guarded by `Benchmarks/instruction-counts` (element send, start + cancel).
@usableFromInline
class EffectBox: @unchecked Sendable {
  // NB: `@unchecked` because the compiler checks the sendability of final classes only; each
  // subclass restates it. Every subclass is final and stores only constants of sendable types,
  // or (`PartsBox`) other boxes.
  @usableFromInline
  let kind: EffectKind

  @inlinable
  init(kind: EffectKind) {
    self.kind = kind
  }
}

/// Which subclass of ``EffectBox`` a box is; read by ``Effect/operation`` only.
@usableFromInline
enum EffectKind: Sendable {
  case send
  case run
  case merge
  case concatenate
  case cancellable
  case cancel
  case reconcile
}

extension Effect {
  /// An effect's box, opened: what the effect does, with the box of its kind.
  ///
  /// The interpreter, ``map(_:)``, ``merge(_:)-(Effect<Action>...)`` and
  /// ``concatenate(_:)-(Effect<Action>...)`` read effects through it. Each payload is a class
  /// reference, so the view has one layout for every action and costs no metadata lookup.
  @usableFromInline
  enum Operation {
    case send(SendBox)
    case run(RunBox)
    case merge(PartsBox)
    case concatenate(PartsBox)
    case cancellable(CancellableBox)
    case cancel(CancelBox)
    case reconcile(ReconcileBox)
  }

  /// What the effect does, or `nil` for ``none``: the one place a box is cast to its class.
  @inlinable
  @inline(__always)
  var operation: Operation? {
    guard let box else { return nil }
    // NB: Each box was made by the initialiser of its class, which sets its kind, and every box
    // of an `Effect<Action>` is a box of that action (`PartsBox` keeps boxes of its own effect's
    // action), so the cast to the kind's class is exact.
    switch box.kind {
    case .send: return .send(unsafeDowncast(box, to: SendBox.self))
    case .run: return .run(unsafeDowncast(box, to: RunBox.self))
    case .merge: return .merge(unsafeDowncast(box, to: PartsBox.self))
    case .concatenate: return .concatenate(unsafeDowncast(box, to: PartsBox.self))
    case .cancellable: return .cancellable(unsafeDowncast(box, to: CancellableBox.self))
    case .cancel: return .cancel(unsafeDowncast(box, to: CancelBox.self))
    case .reconcile: return .reconcile(unsafeDowncast(box, to: ReconcileBox.self))
    }
  }

  /// ``send(_:)``.
  @usableFromInline
  final class SendBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    let action: Action

    @inlinable
    init(_ action: Action) {
      self.action = action
      super.init(kind: .send)
    }
  }

  /// The asynchronous work of ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``.
  @usableFromInline
  final class RunBox: EffectBox, @unchecked Sendable {
    /// The priority the work's task starts at; `nil` inherits the starting context's.
    @usableFromInline
    let priority: TaskPriority?
    /// The dependencies and the reducer context in effect where the effect was created; they
    /// stay in effect inside it (see `ReducerContext`).
    @usableFromInline
    let environment: EffectEnvironment
    @usableFromInline
    let body: @Sendable (Send<Action>) async throws -> Void
    @usableFromInline
    let location: CodeLocation

    @inlinable
    init(
      priority: TaskPriority?,
      environment: EffectEnvironment,
      body: @escaping @Sendable (Send<Action>) async throws -> Void,
      location: CodeLocation
    ) {
      self.priority = priority
      self.environment = environment
      self.body = body
      self.location = location
      super.init(kind: .run)
    }
  }

  /// A merge or a concatenation, by its kind. Its parts are boxes of this effect's action, none
  /// of them `nil`, kept in an array whose type does not depend on the action.
  @usableFromInline
  final class PartsBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    let parts: [EffectBox]

    @inlinable
    init(merging parts: [EffectBox]) {
      self.parts = parts
      super.init(kind: .merge)
    }

    @inlinable
    init(concatenating parts: [EffectBox]) {
      self.parts = parts
      super.init(kind: .concatenate)
    }
  }

  /// ``cancellable(id:cancelInFlight:)``, and a navigated child's work under its key.
  @usableFromInline
  final class CancellableBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    let key: CancellationKey
    @usableFromInline
    let cancelInFlight: Bool
    @usableFromInline
    let effect: Effect

    @inlinable
    init(_ key: CancellationKey, cancelInFlight: Bool, _ effect: Effect) {
      self.key = key
      self.cancelInFlight = cancelInFlight
      self.effect = effect
      super.init(kind: .cancellable)
    }
  }

  /// ``cancel(id:)``, and the cancellation of a navigated child's work.
  @usableFromInline
  final class CancelBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    let key: CancellationKey

    @inlinable
    init(_ key: CancellationKey) {
      self.key = key
      super.init(kind: .cancel)
    }
  }

  /// The reconciliation of a navigation slot's children with the state (see `Reconciliation`).
  @usableFromInline
  final class ReconcileBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    let reconciliation: Reconciliation

    @inlinable
    init(_ reconciliation: Reconciliation) {
      self.reconciliation = reconciliation
      super.init(kind: .reconcile)
    }
  }
}
