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
  /// action case through the action's `AllCasePaths`: the overload Swift picks for a literal
  /// such as `\.timer`.
  ///
  /// It behaves exactly like the overload that takes a `CaseKeyPath`, which goes through
  /// type-erased machinery that boxes the action on every call; this one looks the case path
  /// up once, when the reducer is built.
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
  let parent: Parent
  @usableFromInline
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  /// The identity of the child's slot, built once.
  @usableFromInline
  let slot: HashableIdentity
  /// Whether the action is one of the child's.
  @usableFromInline
  let isChildAction: (Parent.Action) -> Bool
  /// Runs the child reducer for the child action in the action, on the child state in place,
  /// which must be there, setting its effect.
  @usableFromInline
  let runChild: (inout Parent.State, Parent.Action, inout Effect<Child.Action>) -> Void
  @usableFromInline
  let location: CodeLocation

  /// Builds the operator with its steps that extract from the parent's action compiled here,
  /// where `ifLet` is written, for the feature's concrete types, as `forEach` does (see
  /// `_StackReducer.init`).
  @inlinable
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: AnyCasePath<Parent.Action, Child.Action>,
    location: CodeLocation
  ) {
    self.parent = parent
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.slot = .slot(toChildState)
    self.isChildAction = { action in
      toChildAction.extract(from: action) != nil
    }
    self.runChild = { state, action, effect in
      guard let childAction = toChildAction.extract(from: action) else { return }
      // NB: Force-unwrapped through the key path, the child is changed in place, not copied
      // (`IfLetReducerTests`). The caller checked it is there.
      effect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
    }
    self.location = location
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // Read once: each read copies the context.
    let context = ReducerContext.current

    // 1. Reconcile: cancel the work of a child another reducer set to `nil` or replaced.
    let runningChild = cancelChildRemovedElsewhere(state, in: context)

    // 2. Find the child: whether the action is the child's, and which child there is.
    var identityBefore: ChildIdentity?
    var childEffects = Effect<Parent.Action>.none
    if isChildAction(action) {
      if let identity = runningChild ?? childIdentity(in: state) {
        identityBefore = identity
        // 3. Run it in its context, in place. Its parent owns it: it has no `dismiss` of its
        // own, and dismisses what its parent dismisses.
        var effect = Effect<Child.Action>.none
        let run = runChild
        let navigatedChild = context.reduce(
          entering: HashableIdentity(identity), slot: slot, isDismissable: false
        ) {
          run(&state, action, &effect)
        }
        // 4. Lift its effects into the parent's, under the child's key.
        if !effect.isNone {
          let toChildAction = toChildAction
          childEffects = effect.lifted(
            from: navigatedChild,
            embed: { toChildAction.embed($0) },
            dismiss: nil
          )
        }
      } else {
        reportNilChild(action)
      }
    } else if let runningChild {
      identityBefore = runningChild
    }

    // 5. The parent.
    let parentEffects = parent.reduce(into: &state, action: action)

    // 6. Reconcile again: cancel the work of the child this action removed or replaced.
    guard let identityBefore, childIdentity(in: state) != identityBefore else {
      return childEffects.merge(with: parentEffects)
    }
    return .merge(
      childEffects,
      parentEffects,
      .cancelChild(
        HashableIdentity(identityBefore),
        in: context.navigationIDPath.appending(identity: slot)
      )
    )
  }

  /// The identity of the child there is, worked out by reflection; `nil` when there is none.
  ///
  /// Out of ``reduce(into:action:)``, which would otherwise look up the optional's metadata on
  /// every action.
  private func childIdentity(in state: Parent.State) -> ChildIdentity? {
    state[keyPath: toChildState].map(ChildIdentity.init(of:))
  }

  /// Cancels the work of a child that another reducer set to `nil` or replaced since this
  /// operator last ran; returns the identity of the child there is now, when it has running
  /// work, so that the caller need not work it out by reflection again.
  private func cancelChildRemovedElsewhere(
    _ state: Parent.State,
    in context: ReducerContext
  ) -> ChildIdentity? {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else { return nil }
    let slotPath = context.navigationIDPath.appending(identity: slot)
    guard runtime.hasLiveChildren(in: slotPath) else { return nil }
    let current = childIdentity(in: state)
    let currentChild = current.map(HashableIdentity.init)
    runtime.reconcile(slotPath, stack: nil) { $0 == currentChild }
    return current
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
