public import CasePaths
import IssueReporting

extension Reducer {
  /// Runs a child reducer on optional child state while it is non-`nil`.
  ///
  /// The child runs first, then this reducer, so the parent sees the child's changes. A child
  /// action that arrives while the state is `nil` is reported as an issue and only the parent
  /// runs.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.timer, action: \.timer) { Timer() }
  /// ```
  ///
  /// > Important: Plain optional state does not own the child's effects: they keep running when
  /// > the state becomes `nil`. For a screen that is presented and dismissed, use
  /// > `@PresentationState` with its `ifLet`, which cancels them.
  ///
  /// - Parameters:
  ///   - toWrappedState: A writable key path to the optional child state.
  ///   - toWrappedAction: A case key path to the child action.
  ///   - wrapped: The child reducer.
  /// - Returns: A reducer that runs the child and then `self`.
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer<WrappedState, WrappedAction>>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped> {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: AnyCasePath(toWrappedAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer returned by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: AnyCasePath<Parent.Action, Child.Action>
  let location: CodeLocation

  /// Runs the child while its state is present, then the parent.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childEffect = reduceChild(into: &state, action: action)
    return childEffect.merge(with: parent.reduce(into: &state, action: action))
  }

  private func reduceChild(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    guard state[keyPath: toChildState] != nil else {
      location.reportIssue(
        """
        An "ifLet" received a child action when child state was "nil".

          Action:
            \(debugCaseOutput(action))

        This usually means an effect of the child kept running after its state was set to \
        "nil", or the action was sent before the state was set. Plain optional state does not \
        cancel the child's effects; use "@PresentationState" for state that is presented and \
        dismissed.
        """
      )
      return .none
    }
    // NB: Force-unwrapping the key path's value mutates the child in place; copying it out
    // would make every write copy-on-write the child's storage.
    return child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
      .map { [toChildAction] in toChildAction.embed($0) }
  }
}
