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
  /// dismissed — by `.dismiss`, by the feature calling the `dismiss` dependency, or by any reducer
  /// setting the state to `nil` — and when it is replaced by a different presentation (a different
  /// case of the destination enum, or a different `id`). A change made while this operator runs
  /// cancels them at once; a change made by a reducer elsewhere (before this one in a body, or a
  /// grandparent replacing the state that holds it), when the next action reaches this operator.
  /// Each `PresentationState` is its own slot: two sheets of the same feature never cancel each
  /// other's effects. Alerts and confirmation dialogs are cleared as soon as one of their own
  /// buttons sends an action.
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
  /// case through the action's `AllCasePaths`: the overload Swift picks for a literal such as
  /// `\.destination`.
  ///
  /// It behaves exactly like the overload that takes a `CaseKeyPath`, which goes through
  /// type-erased machinery that boxes the action on every call; this one looks the case path
  /// up once, when the reducer is built.
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

/// What an action asks of a presentation.
@usableFromInline
enum PresentationRequest {
  /// An action of the presented feature.
  case presented
  /// The dismissal of the presented feature.
  case dismiss
}

@usableFromInline
struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline
  let parent: Parent
  @usableFromInline
  let toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  @usableFromInline
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>
  /// The identity of the presentation's slot, built once.
  @usableFromInline
  let slot: HashableIdentity
  /// What the action asks of the presentation, if it is a presentation action.
  @usableFromInline
  let request: (Parent.Action) -> PresentationRequest?
  /// Runs the destination reducer for the presented action in the action, on the presented
  /// state in place, setting its effect.
  @usableFromInline
  let runDestination: (inout Parent.State, Parent.Action, inout Effect<Destination.Action>) -> Void
  @usableFromInline
  let location: CodeLocation

  /// Builds the operator with its steps that extract from the parent's action compiled here,
  /// where `ifLet` is written, for the feature's concrete types, as `forEach` does (see
  /// `_StackReducer.init`). Guarded by `Benchmarks/instruction-counts` (sheet screen).
  @inlinable
  init(
    parent: Parent,
    destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>,
    location: CodeLocation
  ) {
    self.parent = parent
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.slot = .slot(toPresentationState)
    self.request = { action in
      switch toPresentationAction.extract(from: action) {
      case .dismiss: .dismiss
      case .presented: .presented
      case nil: nil
      }
    }
    self.runDestination = { state, action, effect in
      guard case .presented(let destinationAction) = toPresentationAction.extract(from: action)
      else { return }
      // NB: Moved out of the computed `\.$destination` first, the box has one owner and is
      // changed in place (`PresentationReducerTests`; instruction counts, sheet screen).
      var presentation = state[keyPath: toPresentationState]
      state[keyPath: toPresentationState] = PresentationState(wrappedValue: nil)
      presentation.modify {
        effect = destination.reduce(into: &$0, action: destinationAction)
      }
      state[keyPath: toPresentationState] = presentation
    }
    self.location = location
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // NB: Read once: each read copies the context (`Benchmarks/instruction-counts`, sheet).
    let context = ReducerContext.current

    // 1. Reconcile: cancel the work of a presentation another reducer dismissed or replaced.
    cancelPresentationRemovedElsewhere(state, in: context)

    // 2. Find the presented feature: what the action asks, and what is presented.
    let request = request(action)
    let identityBefore = state[keyPath: toPresentationState].identity
    var destinationEffects = Effect<Parent.Action>.none
    switch (request, identityBefore) {
    case (.some, nil):
      reportNothingPresented(action)

    case (.presented, let identity?):
      // 3. Run it in its context, in place.
      var effect = Effect<Destination.Action>.none
      let run = runDestination
      let child = context.reduce(
        entering: HashableIdentity(identity), slot: slot, isDismissable: true
      ) {
        run(&state, action, &effect)
      }
      // 4. Lift its effects into the parent's, under the presentation's key.
      if !effect.isNone {
        let toPresentationAction = toPresentationAction
        destinationEffects = effect.lifted(
          from: child,
          embed: { toPresentationAction.embed(.presented($0)) },
          dismiss: { toPresentationAction.embed(.dismiss) }
        )
      }

    case (.dismiss, _), (nil, _):
      break
    }

    // 5. The parent, then the dismissal, which the parent saw the presentation before.
    let parentEffects = parent.reduce(into: &state, action: action)
    if let request, let identityBefore {
      dismiss(identityBefore, for: request, action: action, state: &state)
    }

    // 6. Reconcile again: cancel the work of what this action dismissed or replaced.
    guard
      let identityBefore,
      state[keyPath: toPresentationState].identity != identityBefore
    else {
      return destinationEffects.merge(with: parentEffects)
    }
    return .merge(
      destinationEffects,
      parentEffects,
      .cancelChild(
        HashableIdentity(identityBefore),
        in: context.navigationIDPath.appending(identity: slot)
      )
    )
  }

  /// Cancels the work of a presentation that another reducer dismissed or replaced since this
  /// operator last ran; nothing to do when no navigated child of the store has running work.
  private func cancelPresentationRemovedElsewhere(
    _ state: Parent.State,
    in context: ReducerContext
  ) {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else { return }
    let current = state[keyPath: toPresentationState].identity.map(HashableIdentity.init)
    let slotPath = context.navigationIDPath.appending(identity: slot)
    runtime.reconcile(slotPath, stack: nil) { $0 == current }
  }

  /// Dismisses the presentation `identity`, if the parent left it presented, for a dismiss
  /// action or for an action of a presented alert or dialog.
  ///
  /// NB: Out of ``reduce(into:action:)``, which would otherwise look up the optional's metadata
  /// on every action (`Benchmarks/instruction-counts`, sheet screen).
  private func dismiss(
    _ identity: ChildIdentity,
    for request: PresentationRequest,
    action: Parent.Action,
    state: inout Parent.State
  ) {
    guard state[keyPath: toPresentationState].identity == identity else { return }
    switch request {
    case .dismiss:
      state[keyPath: toPresentationState].wrappedValue = nil
    case .presented:
      if identity.ephemeralActionType != nil, isEphemeral(action, presented: identity) {
        state[keyPath: toPresentationState].wrappedValue = nil
      }
    }
  }

  /// Whether the action is one of the presented alert's or dialog's own actions.
  private func isEphemeral(_ action: Parent.Action, presented identity: ChildIdentity) -> Bool {
    guard case .presented(let destinationAction) = toPresentationAction.extract(from: action)
    else { return false }
    return identity.isEphemeralAction(destinationAction)
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
