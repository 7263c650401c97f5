// The effects that do their work at once: nothing, or an action sent back into the store.

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
}
