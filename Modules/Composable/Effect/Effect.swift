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
  /// The operation in a box, or `nil` for ``none``; read it through ``operation``.
  ///
  /// An effect is one reference whose layout does not depend on `Action`: the store and the
  /// operators run unspecialised, and they copy, test and release an effect without looking up
  /// the action's metadata (see `EffectBox.swift`). The constructors are inlinable so that the
  /// feature that makes an effect makes its box knowing the box's type.
  @usableFromInline
  let box: EffectBox?

  @inlinable
  init(box: EffectBox?) {
    self.box = box
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
