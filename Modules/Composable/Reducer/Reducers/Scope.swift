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
  // NB: One value per case: matching a case whose payload is a tuple with a generic member
  // looks up the tuple's metadata on every action.
  enum StatePath {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(AnyCasePath<ParentState, Child.State>)
  }

  let toChildState: StatePath
  /// Where a scope to an enum case was written, which the issue it reports points at.
  let location: CodeLocation?
  let toChildAction: AnyCasePath<ParentAction, Child.Action>
  let child: Child

  /// Scopes to child state held in a stored property.
  ///
  /// - Parameters:
  ///   - toChildState: A writable key path from the parent state to the child state.
  ///   - toChildAction: A case key path from the parent action to the child action.
  ///   - child: The child reducer.
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .keyPath(toChildState)
    self.location = nil
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
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
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentState: CasePathable {
    self.toChildState = .casePath(AnyCasePath(toChildState))
    self.location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.toChildAction = AnyCasePath(toChildAction)
    self.child = child()
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
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: KeyPath<
      ParentAction.AllCasePaths, AnyCasePath<ParentAction, ChildAction>
    >,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action, ParentAction: CasePathable {
    self.toChildState = .keyPath(toChildState)
    self.location = nil
    self.toChildAction = ParentAction.allCasePaths[keyPath: toChildAction]
    self.child = child()
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
    self.toChildState = .casePath(ParentState.allCasePaths[keyPath: toChildState])
    self.location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.toChildAction = ParentAction.allCasePaths[keyPath: toChildAction]
    self.child = child()
  }

  /// Runs the child on its part of the state when the action is a child action.
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(from: action) else { return .none }
    let childEffect: Effect<Child.Action>
    switch toChildState {
    case .keyPath(let keyPath):
      childEffect = child.reduce(into: &state[keyPath: keyPath], action: childAction)
    case .casePath(let casePath):
      guard var childState = casePath.extract(from: state) else {
        location?.reportIssue(
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
        return .none
      }
      childEffect = child.reduce(into: &childState, action: childAction)
      state = casePath.embed(childState)
    }
    guard !childEffect.isNone else { return .none }
    return childEffect.map { [toChildAction] in toChildAction.embed($0) }
  }
}
