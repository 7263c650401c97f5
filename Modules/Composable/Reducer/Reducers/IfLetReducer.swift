public import CasePaths
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs a child reducer on optional child state while it is non-`nil`.
  ///
  /// The child runs first, then this reducer, so the parent sees the child's changes. A child
  /// action that arrives while the state is `nil` is reported as an issue, and the parent still
  /// runs.
  ///
  /// The child's effects belong to its state: they end when the state becomes `nil` or is
  /// replaced by a different child (another case of an enum, or another `id`), whichever
  /// reducer makes the change; a change made elsewhere is noticed when the next action reaches
  /// this operator. Cancel IDs used in the child are private to it. Unlike
  /// `@PresentationState`, the child has no `dismiss` of its own: plain optional state is
  /// owned by the parent, which sets it to `nil`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.timer, action: \.timer) { Timer() }
  /// ```
  ///
  /// > Note: Plain optional state cannot keep its identity the way `PresentationState` does, so
  /// > while the child has running effects every action through this operator works it out
  /// > again by reflection. Prefer `@PresentationState` for a child that is presented.
  ///
  /// - Parameters:
  ///   - toWrappedState: A writable key path to the optional child state.
  ///   - toWrappedAction: A case key path to the child action.
  ///   - wrapped: The child reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the child and then `self`.
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs a child reducer on optional child state while it is non-`nil`, naming the child's
  /// action case through the action's `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.timer`. The case path is looked up
  /// once, when the reducer is built, and then matches actions with a plain `switch`; a
  /// `CaseKeyPath` goes through type-erased machinery that boxes the action on every call. It
  /// behaves exactly like the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.timer, action: \.timer) { Timer() }
  /// ```
  ///
  /// - Parameters:
  ///   - toWrappedState: A writable key path to the optional child state.
  ///   - toWrappedAction: The child's action case, as a member of the action's `AllCasePaths`.
  ///   - wrapped: The child reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the child and then `self`.
  @_documentation(visibility: internal)
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: KeyPath<Action.AllCasePaths, AnyCasePath<Action, WrappedAction>>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> where Action: CasePathable {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: Action.allCasePaths[keyPath: toWrappedAction],
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

@usableFromInline
struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline
  typealias Runner = NavigatedChildRunner<
    Parent.State, Parent.Action, Child, Child.State?, Child.Action
  >

  let parent: Parent
  let child: Child
  let runner: Runner
  let location: CodeLocation

  // NB: The runner's closures are built here, where `ifLet` is written, for the feature's
  // concrete types (see `NavigatedChildRunner`).
  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    location: CodeLocation
  ) {
    self.init(
      parent: parent,
      child: child,
      toChildState: toChildState,
      toChildAction: toChildAction,
      location: location,
      request: { toChildAction, action in
        toChildAction.extract(from: action) == nil ? nil : .child
      },
      reduceChild: { child, toChildState, toChildAction, state, action, effect in
        guard let childAction = toChildAction.extract(from: action) else { return false }
        // NB: Force-unwrapping the key path's value mutates the child in place; copying it out
        // would make every write copy-on-write the child's storage. The caller checked it is
        // there.
        effect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
        return true
      }
    )
  }

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    location: CodeLocation,
    request: @escaping Runner.Request,
    reduceChild: @escaping Runner.ReduceChild
  ) {
    self.parent = parent
    self.child = child
    self.location = location
    self.runner = Runner(
      toState: toChildState,
      toAction: toChildAction,
      slot: .ifLet,
      isDismissable: false,
      request: request,
      reduceChild: reduceChild
    )
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // NB: Read once and passed down: each read copies the context.
    let context = ReducerContext.current
    let runningChild = reconcileChildrenRemovedElsewhere(state, in: context)
    var identityBefore: PresentationIdentity?
    var childEffects = Effect<Parent.Action>.none
    if runner.request(runner.toAction, action) != nil {
      if let identity = runningChild ?? childIdentity(in: state) {
        identityBefore = identity
        childEffects = reduceChild(identity, action: action, state: &state, in: context)
      } else {
        reportNilChild(action)
      }
    } else if let runningChild {
      identityBefore = runningChild
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    guard let identityBefore, childIdentity(in: state) != identityBefore else {
      return childEffects.merge(with: parentEffects)
    }
    return .merge(
      childEffects,
      parentEffects,
      .cancelChild(HashableIdentity(identityBefore), in: runner.slotPath(in: context))
    )
  }

  /// The identity of the child there is, worked out by reflection; `nil` when there is none.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// child state, and look up its metadata, on every action.
  private func childIdentity(in state: Parent.State) -> PresentationIdentity? {
    state[keyPath: runner.toState].map(PresentationIdentity.init(of:))
  }

  /// Cancels the effects of a child that another reducer set to `nil` or replaced since this
  /// operator last ran; returns the identity of the child there is now, when it has running
  /// effects, so that the caller need not work it out by reflection again.
  private func reconcileChildrenRemovedElsewhere(
    _ state: Parent.State,
    in context: ReducerContext
  ) -> PresentationIdentity? {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else { return nil }
    let slotPath = runner.slotPath(in: context)
    guard runtime.hasLiveChildren(in: slotPath) else { return nil }
    let current = childIdentity(in: state)
    let currentChild = current.map(HashableIdentity.init)
    runtime.reconcile(Reconciliation(slot: slotPath) { $0 == currentChild })
    return current
  }

  /// Runs the child's reducer in its scope, and returns its effects lifted into the parent's.
  private func reduceChild(
    _ identity: PresentationIdentity,
    action: Parent.Action,
    state: inout Parent.State,
    in context: ReducerContext
  ) -> Effect<Parent.Action> {
    let scope = runner.scope(of: HashableIdentity(identity), in: context)
    let toChildAction = runner.toAction
    return runner.reduce(
      scope,
      in: context,
      state: &state,
      action: action,
      child: child
    ) { effect in
      effect.navigated(scope, embed: { toChildAction.embed($0) }, dismiss: nil)
    }.effect
  }

  private func reportNilChild(_ action: Parent.Action) {
    location.reportIssue(
      """
      An "ifLet" received a child action when child state was "nil", so only the parent ran.

        Action:
          \(debugCaseOutput(action))

      The action was probably sent after the state was set to "nil" (a view that outlived \
      it), or before the state was set.
      """
    )
  }
}
