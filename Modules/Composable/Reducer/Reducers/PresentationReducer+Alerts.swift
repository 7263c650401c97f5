public import CasePaths

// `ifLet` for presented state that has no reducer of its own: alerts and confirmation dialogs,
// run by the presentation operator with an empty destination.

extension Reducer {
  /// Runs presented state that has no logic of its own, such as an alert.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the `PresentationState` (`\.$alert`).
  ///   - toPresentationAction: A case key path to the presentation's actions.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that dismisses the presentation and then runs `self`.
  @inlinable
  public func ifLet<DestinationState, DestinationAction: Sendable>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> {
    ifLet(
      toPresentationState,
      action: toPresentationAction,
      destination: { EmptyReducer() },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// Runs presented state that has no logic of its own, naming the presentation's action case
  /// through the action's `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.alert`; the case path is looked up once,
  /// when the reducer is built. It behaves exactly like the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the `PresentationState` (`\.$alert`).
  ///   - toPresentationAction: The presentation's action case, as a member of the action's
  ///     `AllCasePaths`.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that dismisses the presentation and then runs `self`.
  @_documentation(visibility: internal)
  @inlinable
  public func ifLet<DestinationState, DestinationAction: Sendable>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: KeyPath<
      Action.AllCasePaths, AnyCasePath<Action, PresentationAction<DestinationAction>>
    >,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> where Action: CasePathable {
    ifLet(
      toPresentationState,
      action: toPresentationAction,
      destination: { EmptyReducer() },
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }
}
