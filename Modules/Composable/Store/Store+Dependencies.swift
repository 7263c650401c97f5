package import Dependencies

extension DependencyValues {
  /// The dependencies of a new store, and its initial state and reducer built with them in
  /// effect, so that IDs they create come from the store's own generators.
  ///
  /// Every store starts with a stack element ID generator that counts from 0; `prepare` then
  /// applies the caller's overrides.
  package static func forNewStore<State, R>(
    initialState: () -> State,
    reducer: () -> R,
    prepare: (inout DependencyValues) -> Void
  ) -> (State, R, DependencyValues) {
    let dependencies = withDependencies {
      $0.stackElementID = .incrementing()
      prepare(&$0)
    } operation: {
      DependencyValues._current
    }
    let (state, reducer) = withDependencies {
      $0 = dependencies
    } operation: {
      (initialState(), reducer())
    }
    return (state, reducer, dependencies)
  }
}
