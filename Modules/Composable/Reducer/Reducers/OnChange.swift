extension Reducer {
  /// Runs another reducer whenever this one changes a value in the state.
  ///
  /// The value is read before and after this reducer runs; when the two differ, `reducer` is
  /// built from the old and new values and runs with the same action. Changes made from outside
  /// this reducer (a parent writing into the state) do not trigger it, which is what lets a
  /// child report its own edits without echoing the parent's.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.standup) { _, standup in
  ///     Reduce { _, _ in .send(.delegate(.standupUpdated(standup))) }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: Reads the value to watch.
  ///   - reducer: Builds the reducer to run from the old and the new value.
  /// - Returns: A reducer that runs `self`, then `reducer` when the value changed.
  public func onChange<Value: Equatable, Handler: Reducer<State, Action>>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value) ->
      Handler
  ) -> some Reducer<State, Action> {
    _OnChangeReducer(base: self, toValue: toValue, handler: reducer)
  }
}

struct _OnChangeReducer<Base: Reducer, Value: Equatable, Handler: Reducer>: Reducer
where Handler.State == Base.State, Handler.Action == Base.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let handler: (Value, Value) -> Handler

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard oldValue != newValue else { return effect }
    return effect.merge(with: handler(oldValue, newValue).reduce(into: &state, action: action))
  }
}
