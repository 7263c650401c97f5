import CasePaths
import Composable
import IssueReporting

extension Reducer {
  /// The reference presentation `ifLet`: what `ifLet` on ``PresentationState`` does, written as
  /// plainly as it can be. Run by a ``ReferenceStore``.
  func referenceIfLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentation: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> ReferenceIfLet<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    ReferenceIfLet(
      parent: self,
      destination: destination(),
      toPresentation: toPresentation,
      toPresentationAction: AnyCasePath(toPresentationAction)
    )
  }
}

struct ReferenceIfLet<Parent: Reducer, Destination: Reducer>: Reducer {
  let parent: Parent
  let destination: Destination
  let toPresentation: WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  let toPresentationAction: AnyCasePath<Parent.Action, PresentationAction<Destination.Action>>

  var slot: NavigationSlot { NavigationSlot(.presentation, toPresentation) }

  /// What is presented, worked out from the state every time it is asked.
  func presented(in state: Parent.State) -> ChildIdentity? {
    state[keyPath: toPresentation].wrappedValue.map(ChildIdentity.init(of:))
  }

  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let context = ReducerContext.current
    let path = context.navigationIDPath

    // 1. A presentation another reducer dismissed or replaced since the last action: cancel
    // its work.
    let before = presented(in: state)
    let withWork = ReferenceEffects.current?.identifiers(
      ReferenceChild<ChildIdentity>.self, at: path)
    for child in withWork ?? [] where child.slot == slot && child.child != before {
      ReferenceEffects.current?.cancel(CancellationKey(id: child, path: path))
    }

    // 2–4. Find what is presented, run it in its context, lift its effects.
    let presentationAction = toPresentationAction.extract(from: action)
    var destinationEffects = Effect<Parent.Action>.none
    switch (presentationAction, before) {
    case (.some, nil):
      reportIssue("ifLet: a presentation action when nothing is presented")

    case (.presented(let destinationAction), let identity?):
      let child = NavigatedChild(
        parent: path,
        slot: HashableIdentity(slot),
        child: HashableIdentity(identity)
      )
      let effect = ReducerContext.$inTask.withValue(
        context.entering(child, isDismissable: true)
      ) {
        destination.reduce(
          into: &state[keyPath: toPresentation].wrappedValue!,
          action: destinationAction
        )
      }
      let toPresentationAction = toPresentationAction
      destinationEffects = effect.liftedIntoParent(
        embed: { toPresentationAction.embed(.presented($0)) },
        dismissing: (child.path, { toPresentationAction.embed(.dismiss) })
      )
      .cancellable(id: ReferenceChild(slot: slot, child: identity))

    case (.dismiss, _), (nil, _):
      break
    }

    // 5. The parent, then the dismissal: by a dismiss action, or by an action of a presented
    // alert or dialog, unless the parent presented something else.
    let parentEffects = parent.reduce(into: &state, action: action)
    if let before, presented(in: state) == before {
      switch presentationAction {
      case .dismiss:
        state[keyPath: toPresentation].wrappedValue = nil
      case .presented(let destinationAction) where before.isEphemeralAction(destinationAction):
        state[keyPath: toPresentation].wrappedValue = nil
      case .presented, nil:
        break
      }
    }

    // 6. What this action dismissed or replaced: cancel its work, after it has started.
    guard let before, presented(in: state) != before else {
      return .merge(destinationEffects, parentEffects)
    }
    return .merge(
      destinationEffects,
      parentEffects,
      .cancel(id: ReferenceChild(slot: slot, child: before))
    )
  }
}
