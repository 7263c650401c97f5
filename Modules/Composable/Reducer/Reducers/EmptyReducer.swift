/// A reducer that does nothing.
///
/// Useful as a placeholder while building a feature and as the result of an empty
/// ``ReducerBuilder`` block.
///
/// ```swift
/// Scope(state: \.settings, action: \.settings) { EmptyReducer() }
/// ```
public struct EmptyReducer<State, Action: Sendable>: Reducer {
  /// Creates a reducer that leaves state alone and returns no effects.
  public init() {}

  /// Leaves the state alone.
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }
}
