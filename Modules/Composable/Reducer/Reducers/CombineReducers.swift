/// Groups reducers so that modifiers apply to all of them at once.
///
/// A ``Reducer/body`` already combines the reducers it lists; reach for `CombineReducers` when
/// an operator such as ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` should wrap
/// several of them.
///
/// ```swift
/// CombineReducers {
///   Reduce { state, action in … }
///   Reduce { state, action in … }
/// }
/// .ifLet(\.child, action: \.child) { Child() }
/// ```
public struct CombineReducers<State, Action: Sendable, Reducers: Reducer<State, Action>>: Reducer {
  let reducers: Reducers

  /// Combines the reducers built by `build`.
  ///
  /// - Parameter build: The reducers to run, in order.
  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  /// Runs the combined reducers in order and merges their effects.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}
