public import CasePaths
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs a presented feature — a sheet, an alert, a dialog, or an enum of destinations — held
  /// in ``PresentationState``.
  ///
  /// For ``PresentationAction/presented(_:)`` the presented feature's reducer runs first, then
  /// this one. For ``PresentationAction/dismiss`` this reducer runs first, seeing the state one
  /// last time, then the state is cleared.
  ///
  /// The presented feature's effects belong to the presentation: they are cancelled when it is
  /// dismissed — by `.dismiss`, by this reducer setting the state to `nil`, or by the feature
  /// calling the `dismiss` dependency — and when it is replaced by a different presentation (a
  /// different case of the destination enum, or a different `id`). Alerts and confirmation
  /// dialogs are cleared as soon as one of their buttons sends an action.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.$destination, action: \.destination) { Destination() }
  /// }
  /// ```
  ///
  /// > Important: An action that arrives while nothing is presented is reported as an issue and
  /// > ignored.
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the `PresentationState` (`\.$destination`).
  ///   - toPresentationAction: A case key path to the presentation's actions.
  ///   - destination: The presented feature's reducer.
  /// - Returns: A reducer that runs the presented feature and then `self`.
  public func ifLet<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination> {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

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
  /// - Returns: A reducer that dismisses the presentation and then runs `self`.
  public func ifLet<DestinationState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
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

/// The reducer returned by ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  let location: CodeLocation

  /// Runs the presented feature and the parent; clears dismissed and ephemeral presentations
  /// and cancels the effects of any presentation that ended.
  public func reduce(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    let presentationAction = toPresentationAction.extract(from: action)
    let identityBefore = state[keyPath: toPresentationState].wrappedValue.map(
      PresentationIdentity.init(of:)
    )
    var destinationEffects = Effect<Parent.Action>.none

    if let presentationAction {
      guard let identityBefore else {
        reportNothingPresented(action)
        return .none
      }
      if case .presented(let destinationAction) = presentationAction {
        let scope = scope(of: identityBefore)
        let effect = withDependencies {
          $0.navigationIDPath = scope
          $0.dismiss = DismissEffect(target: .scope(scope))
        } operation: {
          state[keyPath: toPresentationState].modify {
            destination.reduce(into: &$0, action: destinationAction)
          }
        }
        destinationEffects = (effect ?? .none).navigated(
          in: scope,
          embed: { [toPresentationAction] in toPresentationAction.embed(.presented($0)) },
          dismiss: { [toPresentationAction] in toPresentationAction.embed(.dismiss) }
        )
      }
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    var identityAfter = state[keyPath: toPresentationState].wrappedValue.map(
      PresentationIdentity.init(of:)
    )
    if let presentationAction, let identityBefore, identityAfter == identityBefore {
      let endsPresentation: Bool
      switch presentationAction {
      case .dismiss:
        endsPresentation = true
      case .presented:
        endsPresentation = state[keyPath: toPresentationState].wrappedValue.map(isEphemeral) == true
      }
      if endsPresentation {
        state[keyPath: toPresentationState].wrappedValue = nil
        identityAfter = nil
      }
    }

    guard let identityBefore, identityBefore != identityAfter else {
      return destinationEffects.merge(with: parentEffects)
    }
    return .merge(
      destinationEffects,
      parentEffects,
      .cancelNavigationScope(scope(of: identityBefore))
    )
  }

  private func scope(of identity: PresentationIdentity) -> NavigationIDPath {
    DependencyValues._current.navigationIDPath.appending(identity)
  }

  private func reportNothingPresented(_ action: Parent.Action) {
    location.reportIssue(
      """
      An "ifLet" received a presentation action when nothing was presented.

        Action:
          \(debugCaseOutput(action))

      The presentation was probably dismissed before the action arrived: a view sent it after \
      the sheet or alert went away, or the action was sent twice.
      """
    )
  }
}
