public import Dependencies

/// Work a reducer asks the store to do after it has updated state: send more actions, run
/// asynchronous code, or cancel earlier work.
///
/// An effect is a description, not running work. The store that receives it from a reducer starts
/// it, tracks it, and cancels it when asked to (see ``cancellable(id:cancelInFlight:)``) or when
/// the feature that owns it leaves the screen. Effects compose with
/// ``merge(_:)-(Effect<Action>...)``, ``concatenate(_:)-(Effect<Action>...)`` and ``map(_:)``.
///
/// ```swift
/// case .refreshButtonTapped:
///   return .run { send in
///     let fact = try await factClient.fetch(count)
///     await send(.factResponse(fact))
///   } catch: { error, send in
///     await send(.factFailed(error.localizedDescription))
///   }
/// ```
public struct Effect<Action: Sendable>: Sendable {
  /// The operation in a box (see `EffectBox`), or `nil` for ``none``; read it through
  /// ``operation``. The constructors are inlinable, so that a feature makes its box knowing the
  /// box's type.
  @usableFromInline
  package let box: EffectBox?

  @inlinable
  package init(box: EffectBox?) {
    self.box = box
  }

  /// Whether the effect does nothing: most actions only change state.
  @inlinable
  var isNone: Bool {
    box == nil
  }
}

extension Effect {
  /// An effect that runs asynchronous work, which can send any number of actions back.
  ///
  /// The work runs in a new task. The dependencies in effect where the effect is created (in a
  /// reducer, those of its store and navigation context) stay in effect inside the work.
  /// Cancelling the effect cancels the task, and ``Send`` drops actions sent after
  /// cancellation.
  ///
  /// A `CancellationError` ends the effect quietly. Any other error goes to `handler`; with no
  /// handler it is reported as an issue naming the action that started the effect, because an
  /// effect that fails silently leaves the feature in a state nobody can see.
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) {
  ///     await send(.timerTick)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the work.
  ///   - operation: The work. Send actions with the given ``Send``.
  ///   - handler: Called with any error `operation` throws, except `CancellationError`.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: An effect that runs `operation`.
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let body: @Sendable (Send<Action>) async throws -> Void
    if let handler {
      body = { send in
        do {
          try await operation(send)
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          await handler(error, send)
        }
      }
    } else {
      body = operation
    }
    let (dependencies, context) = ReducerContext.forEffect()
    return Self(
      box: RunBox(
        priority: priority,
        dependencies: dependencies,
        context: context,
        body: body,
        location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    )
  }
}

/// The box an effect keeps its operation in: the base of one final class for each kind of
/// operation, opened only through ``Effect/operation``.
///
/// Invariant: only `Effect.SendBox` has a field whose layout depends on the action, so the store
/// and the operators, which run unspecialised, copy, read and release effects without the
/// action's metadata; outside `Effect`, so that a merge's parts are an array of one type.
/// Guarded by `Benchmarks/instruction-counts` (element send, start + cancel).
@usableFromInline
package class EffectBox: @unchecked Sendable {
  // `@unchecked`: the compiler checks only final classes; every subclass is final and stores
  // only sendable constants, or (`PartsBox`) other boxes.
  @usableFromInline
  let kind: EffectKind

  @inlinable
  init(kind: EffectKind) {
    self.kind = kind
  }
}

/// Which subclass of ``EffectBox`` a box is; read by ``Effect/operation`` only.
@usableFromInline
package enum EffectKind: Sendable {
  case send
  case run
  case merge
  case concatenate
  case cancellable
}

extension Effect {
  /// An effect's box, opened: what the effect does, with the box of its kind. Each payload is a
  /// class reference, so the view has one layout for every action.
  @usableFromInline
  package enum Operation {
    case send(SendBox)
    case run(RunBox)
    case merge(PartsBox)
    case concatenate(PartsBox)
    case cancellable(CancellableBox)
  }

  /// What the effect does, or `nil` for ``none``: the one place a box is cast to its class.
  @inlinable
  @inline(__always)
  package var operation: Operation? {
    guard let box else { return nil }
    // NB: A box's kind is set by its class's initialiser, and an `Effect<Action>` holds only
    // boxes of `Action`, so each cast is exact (`EffectTests`, every test that runs an effect).
    switch box.kind {
    case .send: return .send(unsafeDowncast(box, to: SendBox.self))
    case .run: return .run(unsafeDowncast(box, to: RunBox.self))
    case .merge: return .merge(unsafeDowncast(box, to: PartsBox.self))
    case .concatenate: return .concatenate(unsafeDowncast(box, to: PartsBox.self))
    case .cancellable: return .cancellable(unsafeDowncast(box, to: CancellableBox.self))
    }
  }

  /// ``send(_:)``.
  @usableFromInline
  package final class SendBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    package let action: Action

    @inlinable
    init(_ action: Action) {
      self.action = action
      super.init(kind: .send)
    }
  }

  /// The asynchronous work of
  /// ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``.
  @usableFromInline
  package final class RunBox: EffectBox, @unchecked Sendable {
    /// The priority the work's task starts at; `nil` inherits the starting context's.
    @usableFromInline
    package let priority: TaskPriority?
    /// The dependencies in effect where the effect was created, kept inside it.
    @usableFromInline
    package let dependencies: DependencyValues
    /// The reducer context where the effect was created, kept inside it.
    @usableFromInline
    package let context: ReducerContext
    @usableFromInline
    package let body: @Sendable (Send<Action>) async throws -> Void
    @usableFromInline
    let location: CodeLocation

    @inlinable
    init(
      priority: TaskPriority?,
      dependencies: DependencyValues,
      context: ReducerContext,
      body: @escaping @Sendable (Send<Action>) async throws -> Void,
      location: CodeLocation
    ) {
      self.priority = priority
      self.dependencies = dependencies
      self.context = context
      self.body = body
      self.location = location
      super.init(kind: .run)
    }
  }

  /// A merge or a concatenation, by its kind. Its parts are boxes of this effect's action, none
  /// of them `nil`, kept in an array whose type does not depend on the action.
  @usableFromInline
  package final class PartsBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    package let parts: [EffectBox]

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

  /// ``cancellable(id:cancelInFlight:)``, a navigated child's work under its key, and, with
  /// nothing inside that cancels in flight, ``cancel(id:)``.
  @usableFromInline
  package final class CancellableBox: EffectBox, @unchecked Sendable {
    @usableFromInline
    package let key: CancellationKey
    @usableFromInline
    package let cancelInFlight: Bool
    @usableFromInline
    package let effect: Effect

    @inlinable
    init(_ key: CancellationKey, cancelInFlight: Bool, _ effect: Effect) {
      self.key = key
      self.cancelInFlight = cancelInFlight
      self.effect = effect
      super.init(kind: .cancellable)
    }
  }
}
