import CasePaths
import Composable
import Dependencies
import IssueReporting

extension Reducer {
  /// The reference presentation `ifLet`: what `ifLet` on ``PresentationState`` does, written as
  /// plainly as it can be, on the same hooks as ``referenceForEach(_:action:element:)``. Run by
  /// a ``ReferenceStore``.
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

  /// The presentation's slot in its parent: the key path to it.
  var slot: String { "\(toPresentation)" }

  /// What is presented, worked out from the state every time it is asked.
  func presented(in state: Parent.State) -> PresentedID? {
    state[keyPath: toPresentation].wrappedValue.map(PresentedID.init(of:))
  }

  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // 1. A presentation another reducer dismissed or replaced since the last action: cancel
    // its work.
    let (effects, path) = (ReferenceEffects.current, NavigationContext.path)
    let before = presented(in: state)
    let withWork = effects?.children(ReferenceChild<PresentedID>.self, at: path) ?? []
    for child in withWork where child.slot == slot && child.child != before {
      effects?.cancel(ReferenceKey(id: child, path: path))
    }

    // 2–4. Find what is presented, run it as the presented feature, lift its effects.
    let presentationAction = toPresentationAction.extract(from: action)
    var destinationEffects = Effect<Parent.Action>.none
    switch (presentationAction, before) {
    case (.some, nil):
      reportIssue("ifLet: a presentation action when nothing is presented")

    case (.presented(let destinationAction), let identity?):
      let effect = NavigationContext.inChild(identity, of: slot) {
        withDependencies {
          $0.dismiss = .reference
        } operation: {
          destination.reduce(
            into: &state[keyPath: toPresentation].wrappedValue!,
            action: destinationAction
          )
        }
      }
      let toPresentationAction = toPresentationAction
      destinationEffects = effect.lifted(
        embed: { toPresentationAction.embed(.presented($0)) },
        dismiss: { toPresentationAction.embed(.dismiss) }
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
      case .presented(let destinationAction) where before.isDismissed(by: destinationAction):
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

/// What makes a presentation the same one over time: its type, its case when it is an enum of
/// destinations, and its `id` when it is `Identifiable`, worked out by reflection.
struct PresentedID: Hashable, @unchecked Sendable {
  // `@unchecked`: `id` is only ever hashed and compared.
  let type: ObjectIdentifier
  let caseName: String?
  let id: AnyHashable?
  /// The type of the actions of an alert or dialog presented: its buttons' actions dismiss it.
  let dismissingActionType: ObjectIdentifier?

  init(of value: some Any) {
    type = ObjectIdentifier(Swift.type(of: value))
    let mirror = Mirror(reflecting: value)
    let isEnum = mirror.displayStyle == .enum
    caseName = isEnum ? mirror.children.first?.label ?? "\(value)" : nil
    let payload = isEnum ? mirror.children.first?.value ?? value : value
    id = (payload as? any Identifiable).flatMap { Self.id(of: $0) }
    dismissingActionType =
      (value as? any _EphemeralState).map { Self.actionType(of: $0) }
      ?? (payload as? any _EphemeralState).map { Self.actionType(of: $0) }
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && lhs.caseName == rhs.caseName && lhs.id == rhs.id
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(caseName)
    hasher.combine(id)
  }

  /// Whether `action` dismisses what is presented: an action of the presented alert or dialog,
  /// itself or as the payload of a destination's case.
  func isDismissed(by action: some Any) -> Bool {
    guard let dismissingActionType else { return false }
    let payload = Mirror(reflecting: action).children.first?.value
    return ObjectIdentifier(Swift.type(of: action as Any)) == dismissingActionType
      || payload.map { ObjectIdentifier(Swift.type(of: $0)) == dismissingActionType } == true
  }

  private static func id<Value: Identifiable>(of value: Value) -> AnyHashable {
    AnyHashable(value.id)
  }

  private static func actionType<State: _EphemeralState>(of _: State) -> ObjectIdentifier {
    ObjectIdentifier(State.Action.self)
  }
}
