/// Sends actions from a running effect back into the store.
///
/// Call it like a function with `await`: the action is delivered on the main actor, where the
/// store runs its reducer. Once the effect has been cancelled, sends are dropped, so a
/// cancelled timer or a dismissed screen can never change state behind the user's back.
///
/// ```swift
/// return .run { send in
///   let result = await client.load()
///   await send(.loaded(result))
/// }
/// ```
@MainActor
public struct Send<Action: Sendable>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a sender from a closure that delivers actions.
  ///
  /// Stores create these; a test of an effect in isolation can make one that records actions.
  ///
  /// - Parameter send: Delivers an action.
  public nonisolated init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends an action, unless the current task has been cancelled.
  ///
  /// - Parameter action: The action to send.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }
}
