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
  /// dismissed — by `.dismiss`, by the feature calling the `dismiss` dependency, or by any reducer setting
  /// the state to `nil` — and when it is replaced by a different presentation (a different case
  /// of the destination enum, or a different `id`). A change made while this operator runs
  /// cancels them at once; a change made by a reducer elsewhere (before this one in a body, or a
  /// grandparent replacing the state that holds it), when the next action reaches this
  /// operator. Each `PresentationState` is its own slot: two sheets of the same feature never
  /// cancel each other's effects. Alerts and confirmation dialogs are cleared as soon
  /// as one of their own buttons sends an action.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .ifLet(\.$destination, action: \.destination) { Destination() }
  /// }
  /// ```
  ///
  /// > Important: An action that arrives while nothing is presented is reported as an issue; this
  /// > reducer still runs.
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the `PresentationState` (`\.$destination`).
  ///   - toPresentationAction: A case key path to the presentation's actions.
  ///   - destination: The presented feature's reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the presented feature and then `self`.
  @inlinable
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
  ) -> some Reducer<State, Action> {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: AnyCasePath(toPresentationAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs a presented feature held in ``PresentationState``, naming the presentation's action
  /// case through the action's `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.destination`. The case path is looked
  /// up once, when the reducer is built, and then matches actions with a plain `switch`; a
  /// `CaseKeyPath` goes through type-erased machinery that boxes the action on every call. It
  /// behaves exactly like the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination) { Destination() }
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: A writable key path to the `PresentationState` (`\.$destination`).
  ///   - toPresentationAction: The presentation's action case, as a member of the action's
  ///     `AllCasePaths`.
  ///   - destination: The presented feature's reducer.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the presented feature and then `self`.
  @_documentation(visibility: internal)
  @inlinable
  public func ifLet<
    DestinationState, DestinationAction, Destination: Reducer<DestinationState, DestinationAction>
  >(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: KeyPath<
      Action.AllCasePaths, AnyCasePath<Action, PresentationAction<DestinationAction>>
    >,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> where Action: CasePathable {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: Action.allCasePaths[keyPath: toPresentationAction],
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

@usableFromInline
struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline
  typealias Runner = NavigatedChildRunner<
    Parent.State, Parent.Action, Destination, PresentationState<Destination.State>,
    PresentationAction<Destination.Action>
  >

  let parent: Parent
  let destination: Destination
  let runner: Runner
  let location: CodeLocation

  // NB: The runner's closures are built here, where `ifLet` is written, for the feature's
  // concrete types (see `NavigatedChildRunner`).
  @inlinable
  init(
    parent: Parent,
    destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>,
    location: CodeLocation
  ) {
    self.init(
      parent: parent,
      destination: destination,
      toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      location: location,
      request: { toPresentationAction, action in
        switch toPresentationAction.extract(from: action) {
        case .dismiss: .dismiss
        case .presented: .child
        case nil: nil
        }
      },
      reduceDestination: { destination, toState, toAction, state, action, effect in
        guard case .presented(let destinationAction) = toAction.extract(from: action) else {
          return false
        }
        // NB: `\.$destination` is a computed key path: writing through it works on a copy of
        // the wrapper, whose box would then be shared and copied. Moved out first, the
        // presentation is the only owner of its box, and the destination mutates in place.
        var presentation = state[keyPath: toState]
        state[keyPath: toState] = PresentationState(wrappedValue: nil)
        let isPresented = presentation.modify {
          effect = destination.reduce(into: &$0, action: destinationAction)
        }
        state[keyPath: toState] = presentation
        return isPresented
      }
    )
  }

  @usableFromInline
  init(
    parent: Parent,
    destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>,
    location: CodeLocation,
    request: @escaping Runner.Request,
    reduceDestination: @escaping Runner.ReduceChild
  ) {
    self.parent = parent
    self.destination = destination
    self.location = location
    self.runner = Runner(
      toState: toPresentationState,
      toAction: toPresentationAction,
      slot: .presentation,
      isDismissable: true,
      request: request,
      reduceChild: reduceDestination
    )
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // NB: Read once and passed down: each read copies the context.
    let context = ReducerContext.current
    reconcilePresentationsRemovedElsewhere(state, in: context)
    let request = runner.request(runner.toAction, action)
    let identityBefore = state[keyPath: runner.toState].identity
    var destinationEffects = Effect<Parent.Action>.none

    switch (request, identityBefore) {
    case (.some, nil):
      reportNothingPresented(action)
    case (.child, let identity?):
      destinationEffects = reduceDestination(identity, action: action, state: &state, in: context)
    case (.dismiss, _), (.element, _), (.push, _), (.popFrom, _), (nil, _):
      break
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    if let request, let identityBefore {
      dismiss(identityBefore, for: request, action: action, state: &state)
    }

    guard
      let identityBefore,
      state[keyPath: runner.toState].identity != identityBefore
    else {
      return destinationEffects.merge(with: parentEffects)
    }
    return .merge(
      destinationEffects,
      parentEffects,
      .cancelChild(HashableIdentity(identityBefore), in: runner.slotPath(in: context))
    )
  }

  /// Cancels the effects of a presentation that another reducer dismissed or replaced since
  /// this operator last ran. Costs nothing when no navigated child of the store has running
  /// work.
  private func reconcilePresentationsRemovedElsewhere(
    _ state: Parent.State,
    in context: ReducerContext
  ) {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else { return }
    let current = state[keyPath: runner.toState].identity.map(HashableIdentity.init)
    runtime.reconcile(Reconciliation(slot: runner.slotPath(in: context)) { $0 == current })
  }

  /// Dismisses the presentation `identity`, if the parent left it presented, for a dismiss
  /// action or for an action of a presented alert or dialog.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// presented state, and look up its metadata, on every action.
  private func dismiss(
    _ identity: PresentationIdentity,
    for request: NavigationRequest,
    action: Parent.Action,
    state: inout Parent.State
  ) {
    guard state[keyPath: runner.toState].identity == identity else { return }
    switch request {
    case .dismiss:
      state[keyPath: runner.toState].wrappedValue = nil
    case .child:
      // NB: `isEphemeralAction` checks the type too; checked first here, it spares a normal
      // destination's actions a second extraction.
      if identity.ephemeralActionType != nil, isEphemeral(action, presented: identity) {
        state[keyPath: runner.toState].wrappedValue = nil
      }
    case .element, .push, .popFrom:
      break
    }
  }

  /// Whether the action is one of the presented alert's or dialog's own actions.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// presentation action, and look up its metadata, on every action.
  private func isEphemeral(_ action: Parent.Action, presented identity: PresentationIdentity)
    -> Bool
  {
    guard case .presented(let destinationAction) = runner.toAction.extract(from: action)
    else { return false }
    return identity.isEphemeralAction(destinationAction)
  }

  /// Runs the destination's reducer in its scope, and returns its effects lifted into the
  /// parent's.
  private func reduceDestination(
    _ identity: PresentationIdentity,
    action: Parent.Action,
    state: inout Parent.State,
    in context: ReducerContext
  ) -> Effect<Parent.Action> {
    let scope = runner.scope(of: HashableIdentity(identity), in: context)
    let toPresentationAction = runner.toAction
    return runner.reduce(
      scope,
      in: context,
      state: &state,
      action: action,
      child: destination
    ) { effect in
      effect.navigated(
        scope,
        embed: { toPresentationAction.embed(.presented($0)) },
        dismiss: { toPresentationAction.embed(.dismiss) }
      )
    }.effect
  }

  private func reportNothingPresented(_ action: Parent.Action) {
    location.reportIssue(
      """
      An "ifLet" received a presentation action when nothing was presented, so only the \
      parent ran.

        Action:
          \(debugCaseOutput(action))

      The presentation was probably dismissed before the action arrived: a view sent it after \
      the sheet or alert went away, or the action was sent twice.
      """
    )
  }
}
