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
  @usableFromInline
  enum Operation: Sendable {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(CancellationKey, cancelInFlight: Bool, Effect)
    case cancel(CancellationKey)
    case reconcile(NavigationReconciliation)
  }

  /// The asynchronous work of ``Effect/run(priority:operation:catch:fileID:filePath:line:column:)``.
  @usableFromInline
  struct Run: Sendable {
    @usableFromInline
    let priority: TaskPriority?
    /// The dependencies and navigation in effect where the effect was created; they stay in
    /// effect inside it.
    @usableFromInline
    let environment: EffectEnvironment
    @usableFromInline
    let body: @Sendable (Send<Action>) async throws -> Void
    @usableFromInline
    let location: CodeLocation

    // NB: Inlined into `map` and the constructors, which then make a run without looking up the
    // run's metadata.
    @inlinable
    @inline(__always)
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
    }

    /// Work created here, which keeps the dependencies and navigation in effect now.
    @inlinable
    init(
      priority: TaskPriority?,
      body: @escaping @Sendable (Send<Action>) async throws -> Void,
      fileID: StaticString,
      filePath: StaticString,
      line: UInt,
      column: UInt
    ) {
      self.init(
        priority: priority,
        environment: .current(),
        body: body,
        location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
  }

  /// The operation in a box, or `nil` for ``none``.
  ///
  /// NB: A class reference keeps an effect one pointer whatever its action. The operators and
  /// the store are generic code, run unspecialised for every feature; with the operation stored
  /// inline they looked up the action's type metadata to return, copy, test or destroy each
  /// effect, which cost more than an element reducer itself. Most actions return `.none`, and
  /// that is now a null pointer.
  ///
  /// The constructors are inlinable for the same reason: specialised in the feature that
  /// returns the effect, making one knows the operation's type without looking it up.
  @usableFromInline
  let box: Box?

  @usableFromInline
  final class Box: Sendable {
    @usableFromInline
    let operation: Operation
    /// Whether the operation is a merge, which `merge` flattens.
    ///
    /// NB: Matching `operation` copies it out of the box first, retaining everything it holds;
    /// the flag lets `merge` look at each effect it is given without that. It is set by the
    /// maker of the merge, because testing the operation here would copy it too.
    @usableFromInline
    let isMerge: Bool

    @inlinable
    init(_ operation: Operation, isMerge: Bool = false) {
      self.operation = operation
      self.isMerge = isMerge
    }
  }

  @inlinable
  init(operation: Operation) {
    self.box = Box(operation)
  }

  /// Runs `effects` side by side, marked as the merge it is.
  @inlinable
  init(merging effects: [Effect]) {
    self.box = Box(.merge(effects), isMerge: true)
  }

  @inlinable
  init(box: Box?) {
    self.box = box
  }

  // NB: Inlined where the operation is switched on, which looks up its metadata already; and
  // not `box?.operation ?? .none`, which would look up that of an optional operation as well.
  @inlinable
  @inline(__always)
  var operation: Operation {
    guard let box else { return .none }
    return box.operation
  }

  /// Whether the effect does nothing; operators check it before building closures to lift an
  /// effect, because most actions only change state.
  @inlinable
  var isNone: Bool {
    box == nil
  }
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
    Self(operation: .send(action))
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
      operation: .run(
        Run(
          priority: priority,
          body: body,
          fileID: fileID,
          filePath: filePath,
          line: line,
          column: column
        )
      )
    )
  }
}
