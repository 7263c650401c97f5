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
  /// The presented feature's effects belong to the presentation: they end when it is dismissed
  /// — by `.dismiss`, by the feature calling the `dismiss` dependency, or by any reducer setting
  /// the state to `nil` — and when it is replaced by a different presentation (a different case
  /// of the destination enum, or a different `id`). A change made while this operator runs ends
  /// them at once; a change made by a reducer elsewhere (before this one in a body, or a
  /// grandparent replacing the state that holds it), when the next action reaches this
  /// operator. Each `PresentationState` is its own slot: two sheets of the same feature never
  /// end, or cancel, each other's effects. Alerts and confirmation dialogs are cleared as soon
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

/// What a presentation action asks of the presentation, without its payload.
@usableFromInline
enum PresentationActionKind {
  case dismiss
  case presented
}

@usableFromInline
struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  let location: CodeLocation
  /// The identity of the slot the operator's children are in, built once: a key path is not
  /// trivial, so each identity of it would be an allocation.
  let navigationSlot: HashableIdentity
  /// What the action asks of the presentation, if it is a presentation action.
  let kind:
    (AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>, Parent.Action) ->
      PresentationActionKind?
  /// Runs the destination reducer for the presented action in the action on the presented
  /// state, setting the effect.
  let reduceDestinationAction: ReduceDestinationAction

  /// The destination reducer, the presentation's actions, the presentation, the action, and
  /// the destination's effect to set.
  @usableFromInline
  typealias ReduceDestinationAction = (
    Destination,
    AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>,
    inout PresentationState<Destination.State>,
    Parent.Action,
    inout Effect<Destination.Action>
  ) -> Void

  // NB: The two closures above are made here, where `ifLet` is written, for the feature's
  // concrete types. Compiled once for any types, extracting the presentation action looked up
  // the metadata of the optional action, the action, and the tuple matched on, on every action
  // through the operator, the destination's or not. They are given the operator's parts rather
  // than capturing them, so that making them allocates nothing.
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
      kind: { toPresentationAction, action in
        switch toPresentationAction.extract(from: action) {
        case .dismiss: .dismiss
        case .presented: .presented
        case nil: nil
        }
      },
      reduceDestinationAction: { destination, toPresentationAction, presentation, action, effect in
        guard case .presented(let destinationAction) = toPresentationAction.extract(from: action)
        else { return }
        presentation.modify {
          effect = destination.reduce(into: &$0, action: destinationAction)
        }
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
    kind:
      @escaping (
        AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>, Parent.Action
      ) -> PresentationActionKind?,
    reduceDestinationAction: @escaping ReduceDestinationAction
  ) {
    self.parent = parent
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.location = location
    self.navigationSlot = HashableIdentity(NavigationSlot(.presentation, toPresentationState))
    self.kind = kind
    self.reduceDestinationAction = reduceDestinationAction
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    endPresentationsEndedElsewhere(state)
    let presentationAction = kind(toPresentationAction, action)
    let identityBefore = state[keyPath: toPresentationState].identity
    var destinationEffects = Effect<Parent.Action>.none

    switch (presentationAction, identityBefore) {
    case (.some, nil):
      reportNothingPresented(action)
    case (.presented, let identity?):
      destinationEffects = reduceDestination(identity, action: action, state: &state)
    case (.dismiss, _), (nil, _):
      break
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    if let presentationAction, let identityBefore {
      dismiss(identityBefore, for: presentationAction, action: action, state: &state)
    }

    guard
      let identityBefore,
      state[keyPath: toPresentationState].identity != identityBefore
    else {
      return destinationEffects.merge(with: parentEffects)
    }
    return .merge(
      destinationEffects,
      parentEffects,
      .end(child: HashableIdentity(identityBefore), in: slot)
    )
  }

  /// The navigation slot of this presentation: the parent's path and the key path of its
  /// `PresentationState`, so that two presentations of one feature never share effects.
  private var slot: NavigationIDPath {
    ReducerContext.currentNavigationIDPath.appending(identity: navigationSlot)
  }

  /// Ends the effects of a presentation that another reducer dismissed or replaced since this
  /// operator last ran. Costs nothing when no navigated child of the store has running work.
  private func endPresentationsEndedElsewhere(_ state: Parent.State) {
    guard let runtime = ReducerContext.current.runtime, runtime.hasNavigatedEffects else {
      return
    }
    let current = state[keyPath: toPresentationState].identity.map(HashableIdentity.init)
    _ = runtime.reconcile(slot, marker: nil) { $0 == current }
  }

  /// Dismisses the presentation `identity`, if the parent left it presented, for a dismiss
  /// action or for an action of a presented alert or dialog.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// presented state, and look up its metadata, on every action.
  private func dismiss(
    _ identity: PresentationIdentity,
    for kind: PresentationActionKind,
    action: Parent.Action,
    state: inout Parent.State
  ) {
    guard state[keyPath: toPresentationState].identity == identity else { return }
    switch kind {
    case .dismiss:
      state[keyPath: toPresentationState].wrappedValue = nil
    case .presented:
      // NB: `isEphemeralAction` checks the type too; checked first here, it spares a normal
      // destination's actions a second extraction.
      if identity.ephemeralActionType != nil, isEphemeral(action, presented: identity) {
        state[keyPath: toPresentationState].wrappedValue = nil
      }
    }
  }

  /// Whether the action is one of the presented alert's or dialog's own actions.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// presentation action, and look up its metadata, on every action.
  private func isEphemeral(_ action: Parent.Action, presented identity: PresentationIdentity)
    -> Bool
  {
    guard case .presented(let destinationAction) = toPresentationAction.extract(from: action)
    else { return false }
    return identity.isEphemeralAction(destinationAction)
  }

  private func reduceDestination(
    _ identity: PresentationIdentity,
    action: Parent.Action,
    state: inout Parent.State
  ) -> Effect<Parent.Action> {
    let context = ReducerContext.current
    let scope = NavigatedScope(
      parent: context.navigationIDPath,
      slot: navigationSlot,
      child: HashableIdentity(identity)
    )
    // NB: `\.$destination` is a computed key path: writing through it works on a copy of the
    // wrapper, whose box would then be shared and copied. Moving the presentation out first
    // leaves it the only owner of its box, so the destination mutates in place.
    var presentation = state[keyPath: toPresentationState]
    state[keyPath: toPresentationState] = PresentationState(wrappedValue: nil)
    // NB: As in `forEach`: the effect comes out through a variable, and the closure captures
    // the operator's parts rather than the operator, so that this generic code looks up no
    // metadata it can do without.
    var effect = Effect<Destination.Action>.none
    let (reduceDestinationAction, destination, toPresentationAction) = (
      reduceDestinationAction, destination, toPresentationAction
    )
    context.entering(scope, isDismissable: true).run {
      reduceDestinationAction(destination, toPresentationAction, &presentation, action, &effect)
    }
    state[keyPath: toPresentationState] = presentation
    guard !effect.isNone else { return .none }
    return effect.navigated(
      scope,
      embed: { [toPresentationAction] in toPresentationAction.embed(.presented($0)) },
      dismiss: { [toPresentationAction] in toPresentationAction.embed(.dismiss) }
    )
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
