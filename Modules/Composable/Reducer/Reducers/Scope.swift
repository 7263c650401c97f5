public import CasePaths
import IssueReporting

/// Runs a child reducer on a part of the parent's state and actions.
///
/// `Scope` is how a parent embeds a child feature whose state is always present: the child sees
/// only its own state and actions, and its effects are lifted back into parent actions. The
/// state can be a stored property (a key path) or one case of an enum (a case key path), which
/// is how an enum of features such as a navigation `Path` gives each case its own reducer.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.list, action: \.list) { StandupsList() }
///   Reduce { state, action in … }
/// }
/// ```
///
/// > Important: With an enum, a child action that arrives while the state is in another case is
/// > reported as an issue and ignored: it usually means an effect outlived the case it belonged
/// > to.
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  // NB: A closure built by the inlinable initialisers, compiled for the feature's types, as
  // `forEach`'s are (`_StackReducer.init`; `Benchmarks/instruction-counts`, element send).
  @usableFromInline
  let reduceChild: (inout ParentState, ParentAction) -> Effect<ParentAction>

  /// Scopes to child state held in a stored property.
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path from the parent state to the child state.
  ///   - toChildAction: A case key path from the parent action to the child action.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(keyPath: toChildState, action: AnyCasePath(toChildAction), child: child())
  }

  /// Scopes to child state held in one case of an enum.
  ///
  /// - Parameters:
  ///   - toChildState: A case key path from the parent state to the child state.
  ///   - toChildAction: A case key path from the parent action to the child action.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable {
    self.init(
      casePath: AnyCasePath(toChildState),
      action: AnyCasePath(toChildAction),
      child: child(),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Scopes to child state held in a stored property, naming the action's case through its
  /// `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.list`. The case path is looked up once,
  /// when the reducer is built, and then matches actions with a plain `switch`; a `CaseKeyPath`
  /// goes through type-erased machinery that boxes the action on every call. It behaves exactly
  /// like the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// Scope(state: \.list, action: \.list) { StandupsList() }
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path from the parent state to the child state.
  ///   - toChildAction: The action's case, as a member of its `AllCasePaths`.
  ///   - child: The child reducer.
  @_documentation(visibility: internal)
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: KeyPath<
      ParentAction.AllCasePaths, AnyCasePath<ParentAction, ChildAction>
    >,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentAction: CasePathable {
    self.init(
      keyPath: toChildState,
      action: ParentAction.allCasePaths[keyPath: toChildAction],
      child: child()
    )
  }

  /// Scopes to child state held in one case of an enum, naming both cases through their
  /// `AllCasePaths`.
  ///
  /// Swift picks this overload for literals such as `\.detail`. The case paths are looked up
  /// once, when the reducer is built, and then match with a plain `switch`; a `CaseKeyPath`
  /// goes through type-erased machinery that boxes the state and the action on every call. It
  /// behaves exactly like the overload that takes `CaseKeyPath`s.
  ///
  /// ```swift
  /// Scope(state: \.detail, action: \.detail) { StandupDetail() }
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: The state's case, as a member of its `AllCasePaths`.
  ///   - toChildAction: The action's case, as a member of its `AllCasePaths`.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  @_documentation(visibility: internal)
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: KeyPath<ParentState.AllCasePaths, AnyCasePath<ParentState, ChildState>>,
    action toChildAction: KeyPath<
      ParentAction.AllCasePaths, AnyCasePath<ParentAction, ChildAction>
    >,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  )
  where
    ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable,
    ParentAction: CasePathable
  {
    self.init(
      casePath: ParentState.allCasePaths[keyPath: toChildState],
      action: ParentAction.allCasePaths[keyPath: toChildAction],
      child: child(),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Scopes to child state held in a stored property.
  @inlinable
  init(
    keyPath toChildState: WritableKeyPath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    child: Child
  ) {
    self.reduceChild = { state, action in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      return Self.lift(
        child.reduce(into: &state[keyPath: toChildState], action: childAction),
        toChildAction
      )
    }
  }

  /// Scopes to child state held in one case of an enum.
  @inlinable
  init(
    casePath toChildState: AnyCasePath<ParentState, Child.State>,
    action toChildAction: AnyCasePath<ParentAction, Child.Action>,
    child: Child,
    location: CodeLocation
  ) {
    self.reduceChild = { state, action in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      guard var childState = toChildState.extract(from: state) else {
        Self.reportActionForOtherCase(action, state: state, location: location)
        return .none
      }
      let childEffect = child.reduce(into: &childState, action: childAction)
      state = toChildState.embed(childState)
      return Self.lift(childEffect, toChildAction)
    }
  }

  /// Runs the child on its part of the state when the action is a child action.
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    reduceChild(&state, action)
  }

  /// The child's effect, sending parent actions.
  @usableFromInline
  static func lift(
    _ childEffect: Effect<Child.Action>,
    _ toChildAction: AnyCasePath<ParentAction, Child.Action>
  ) -> Effect<ParentAction> {
    guard !childEffect.isNone else { return .none }
    return childEffect.map { [toChildAction] in toChildAction.embed($0) }
  }

  /// Reports a child action that arrived while the parent's enum state was another case.
  @usableFromInline
  static func reportActionForOtherCase(
    _ action: ParentAction,
    state: ParentState,
    location: CodeLocation
  ) {
    location.reportIssue(
      """
      A "Scope" received a child action when child state was set to a different case.

        Action:
          \(debugCaseOutput(action))
        State:
          \(debugCaseOutput(state))

      This usually means an effect of the child kept running after the parent switched \
      to another case. Tie the child's effects to its presence (for example with \
      "ifLet" and "PresentationState", or "forEach" on a stack), or cancel them before \
      changing the case.
      """
    )
  }
}
