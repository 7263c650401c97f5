/// A reducer made from a closure.
///
/// The usual way to write a feature's own logic inside ``Reducer/body``: a `switch` over the
/// action that mutates state and returns effects.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .incrementButtonTapped:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
  let reduce: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a closure.
  ///
  /// - Parameter reduce: Mutates the state for an action and returns the effects to run.
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases the type of another reducer.
  ///
  /// - Parameter reducer: The reducer to wrap.
  public init<R: Reducer<State, Action>>(_ reducer: R) {
    self.reduce = reducer.reduce(into:action:)
  }

  /// Calls the closure.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}
