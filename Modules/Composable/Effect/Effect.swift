/// Work a reducer asks the store to do after it has updated state: send more actions, run
/// asynchronous code, or cancel earlier work.
///
/// An effect is a description, not running work. The store that receives it from a reducer
/// starts it, tracks it, and cancels it when asked to (see ``cancellable(id:cancelInFlight:)``)
/// or when the feature that owns it leaves the screen. Effects compose with ``merge(_:)-(Effect<Action>...)``,
/// ``concatenate(_:)-(Effect<Action>...)`` and ``map(_:)``.
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
  /// The operation in a box, or `nil` for ``none``.
  ///
  /// NB: A class reference keeps an effect one pointer whatever its action. The operators and
  /// the store are generic code, run unspecialised for every feature; with the operation stored
  /// inline they looked up the action's type metadata to return, copy, test or destroy each
  /// effect, which cost more than an element reducer itself. Most actions return `.none`, and
  /// that is now a null pointer.
  ///
  /// The constructors are inlinable for the same reason: specialised in the feature that
  /// returns the effect, making one knows the box's type without looking it up.
  @usableFromInline
  let box: Box?

  /// An operation: the base of one class for each kind, which readers tell apart by ``kind``
  /// and downcast to (``EffectBox``, which does not depend on the action).
  @usableFromInline
  typealias Box = EffectBox

  /// ``send(_:)``.
  @usableFromInline
  final class SendBox: Box, @unchecked Sendable {
    @usableFromInline
    let action: Action

    @inlinable
    init(_ action: Action) {
      self.action = action
      super.init(kind: .send)
    }
  }

  /// The asynchronous work of ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``.
  ///
  /// NB: Kept to 113 bytes, within glibc's fast bins (requests of up to 120 bytes): a reducer
  /// that starts many runs at once allocates a burst of these, and past the few blocks a
  /// thread's cache holds, a larger box went through the allocator's slower bins. The context
  /// an effect keeps is one reference (`ReducerContext.Escaped`), and a code location packs its
  /// line and column (`CodeLocation`), for this.
  @usableFromInline
  final class RunBox: Box, @unchecked Sendable {
    /// NB: The priority's raw value, because the standard library keeps `TaskPriority`'s
    /// layout to itself: a field of that type would place the fields after it only at run time.
    @usableFromInline
    let priorityRawValue: UInt8?
    /// The dependencies and navigation in effect where the effect was created; they stay in
    /// effect inside it.
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
      self.priorityRawValue = priority?.rawValue
      self.environment = environment
      self.body = body
      self.location = location
      super.init(kind: .run)
    }

    /// The priority the work's task starts at; `nil` inherits the starting context's.
    var priority: TaskPriority? {
      priorityRawValue.map(TaskPriority.init(rawValue:))
    }
  }

  /// A merge or a concatenation, by ``kind``.
  ///
  /// NB: The parts are kept as their boxes, none of them `nil`, in an array whose type does not
  /// depend on the action. The interpreter runs unspecialised, and reading an array of effects
  /// there called the generic subscript, which looked up the action's metadata and copied each
  /// part through the effect's value witnesses. Every part is a box of this effect's action.
  @usableFromInline
  final class PartsBox: Box, @unchecked Sendable {
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
  final class CancellableBox: Box, @unchecked Sendable {
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

  /// ``cancel(id:)``, and the end of a navigated child's work.
  @usableFromInline
  final class CancelBox: Box, @unchecked Sendable {
    @usableFromInline
    let key: CancellationKey

    @inlinable
    init(_ key: CancellationKey) {
      self.key = key
      super.init(kind: .cancel)
    }
  }

  /// The end of the work of a navigation slot's children that have gone.
  @usableFromInline
  final class ReconcileBox: Box, @unchecked Sendable {
    @usableFromInline
    let reconciliation: NavigationReconciliation

    @inlinable
    init(_ reconciliation: NavigationReconciliation) {
      self.reconciliation = reconciliation
      super.init(kind: .reconcile)
    }
  }

  @inlinable
  init(box: Box?) {
    self.box = box
  }

  /// Whether the effect does nothing; operators check it before building closures to lift an
  /// effect, because most actions only change state.
  @inlinable
  var isNone: Bool {
    box == nil
  }
}

/// The box of an effect's operation: the base of one class for each kind, which readers tell
/// apart by ``kind`` and downcast to.
///
/// NB: A class for each kind rather than one class holding an enum of the operations. Such an
/// enum is generic over the action, and it held identifiers, then existentials, so the
/// compiler handled it only through its type metadata: copying an operation out of its box,
/// switching on it and destroying it each looked the metadata up, some 330 instructions a time,
/// three times for each cancellable effect. Each class stores its fields directly, and only
/// `SendBox`'s action has a layout that depends on the action (its metadata is the class's own
/// argument), so a box is read and released without a lookup, and it is the size of its own
/// kind. The base is outside `Effect`, where it would be generic over the action, so that a
/// merge keeps its parts in an array whose type does not depend on the action.
@usableFromInline
class EffectBox: @unchecked Sendable {
  // NB: `@unchecked` because the compiler checks the sendability of final classes only, and
  // each subclass restates it because it inherits an unchecked conformance. Every subclass is
  // final and stores only constants of sendable types, or (`PartsBox`) other boxes.
  @usableFromInline
  let kind: EffectKind

  @inlinable
  init(kind: EffectKind) {
    self.kind = kind
  }
}

/// What an effect's box holds, and so which subclass of `Effect.Box` it is.
///
/// NB: Outside `Effect`, where it would be generic over the action like everything nested in it.
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
  /// An effect that does nothing.
  ///
  /// Return it when an action only changes state.
  ///
  /// ```swift
  /// case .titleChanged(let title):
  ///   state.title = title
  ///   return .none
  /// ```
  @inlinable
  public static var none: Self {
    Self(box: nil)
  }

  /// An effect that immediately sends an action back into the store.
  ///
  /// The action is processed synchronously, right after the current one and before the store
  /// returns control, so the two changes reach observers together. Prefer calling shared logic
  /// directly; `send` is for telling a parent something, such as a delegate action.
  ///
  /// ```swift
  /// return .send(.delegate(.standupUpdated(state.standup)))
  /// ```
  ///
  /// - Parameter action: The action to send.
  /// - Returns: An effect that sends `action`.
  @inlinable
  public static func send(_ action: Action) -> Self {
    Self(box: SendBox(action))
  }

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
    return Self(
      box: RunBox(
        priority: priority,
        environment: .current(),
        body: body,
        location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    )
  }
}
