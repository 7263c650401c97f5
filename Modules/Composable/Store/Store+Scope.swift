public import CasePaths

extension Store {
  /// Derives a store for a child feature.
  ///
  /// The child store reads its state through this store every time, and its actions are
  /// embedded into this store's actions.
  ///
  /// ```swift
  /// let listStore = store.scope(state: \.list, action: \.list)
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this state to the child state.
  ///   - toChildAction: A case key path from this action to the child action.
  /// - Returns: The child store.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let embed = AnyCasePath(toChildAction)
    return Store<ChildState, ChildAction>(
      toState: { [toState] in toState()[keyPath: toChildState] },
      toSend: { [toSend] in toSend(embed.embed($0)) },
      runtime: runtime,
      observeRoot: observeRoot,
      makeRootStackElementID: makeRootStackElementID
    )
  }

  /// Derives a store for a child feature, naming the child's action case through the action's
  /// `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.list`. The case path is looked up once,
  /// here, and then embeds every action the child store sends without boxing it; a
  /// `CaseKeyPath` goes through type-erased machinery on every send. It behaves exactly like
  /// the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// let listStore = store.scope(state: \.list, action: \.list)
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: A key path from this state to the child state.
  ///   - toChildAction: The child's action case, as a member of this action's `AllCasePaths`.
  /// - Returns: The child store.
  @_documentation(visibility: internal)
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, ChildAction>>
  ) -> Store<ChildState, ChildAction> where Action: CasePathable {
    let embed = Action.allCasePaths[keyPath: toChildAction]
    return Store<ChildState, ChildAction>(
      toState: { [toState] in toState()[keyPath: toChildState] },
      toSend: { [toSend] in toSend(embed.embed($0)) },
      runtime: runtime,
      observeRoot: observeRoot,
      makeRootStackElementID: makeRootStackElementID
    )
  }
}
