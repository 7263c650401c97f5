import CasePaths
import Composable
import Dependencies
import IssueReporting

extension Reducer {
  /// The reference `forEach`: what `forEach` does, written as plainly as it can be, with no
  /// specialisation, no thread-local context and no version counters. Run by a
  /// ``ReferenceStore``.
  func referenceForEach<ElementState, ElementAction, Element: Reducer>(
    _ toStack: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> ReferenceForEach<Self, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    ReferenceForEach(
      parent: self,
      element: element(),
      toStack: toStack,
      toStackAction: AnyCasePath(toStackAction)
    )
  }
}

/// The key of all the work of one child of a reference operator: its slot and itself.
struct ReferenceChild<Child: Hashable & Sendable>: Hashable, Sendable {
  let slot: NavigationSlot
  let child: Child
}

struct ReferenceForEach<Parent: Reducer, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toStack: WritableKeyPath<Parent.State, StackState<Element.State>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>

  var slot: NavigationSlot { NavigationSlot(.stack, toStack) }

  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    let context = ReducerContext.current
    let path = context.navigationIDPath

    // 1. Elements another reducer removed since the last action: cancel their work.
    let withWork = ReferenceEffects.current?.identifiers(
      ReferenceChild<StackElementID>.self, at: path)
    let removedElsewhere = (withWork ?? []).filter {
      $0.slot == slot && !state[keyPath: toStack].ids.contains($0.child)
    }
    for child in removedElsewhere {
      ReferenceEffects.current?.cancel(CancellationKey(id: child, path: path))
    }
    let idsBefore = state[keyPath: toStack].ids

    // 2–4. Find the element, run it in its context, lift its effects.
    var elementEffects = Effect<Parent.Action>.none
    switch toStackAction.extract(from: action) {
    case .element(let id, let elementAction):
      guard state[keyPath: toStack][id: id] != nil else {
        if !removedElsewhere.contains(where: { $0.child == id }) {
          reportIssue("forEach: an action for element \(id), which is not on the stack")
        }
        break
      }
      let child = NavigatedChild(parent: path, slot: HashableIdentity(slot), element: id)
      let effect = ReducerContext.$inTask.withValue(
        context.entering(child, isDismissable: true)
      ) {
        element.reduce(into: &state[keyPath: toStack][id: id]!, action: elementAction)
      }
      let toStackAction = toStackAction
      elementEffects = effect.liftedIntoParent(
        embed: { toStackAction.embed(.element(id: id, action: $0)) },
        dismissing: (child.path, { toStackAction.embed(.popFrom(id: id)) })
      )
      .cancellable(id: ReferenceChild(slot: slot, child: id))

    case .push(let id, let elementState):
      guard !idsBefore.contains(id) else {
        reportIssue("forEach: a push of element \(id), which is on the stack already")
        break
      }
      @Dependency(\.stackElementID) var stackElementID
      if stackElementID.peek() < id {
        reportIssue("forEach: a push of element \(id), which the generator has not made yet")
      }
      stackElementID.skip(past: id)
      state[keyPath: toStack].insert(elementState, id: id)

    case .popFrom, nil:
      break
    }

    // 5. The parent, then the pop.
    let parentEffects = parent.reduce(into: &state, action: action)
    if case .popFrom(let id) = toStackAction.extract(from: action) {
      if state[keyPath: toStack].ids.contains(id) {
        state[keyPath: toStack].pop(from: id)
      } else {
        reportIssue("forEach: a pop of element \(id), which is not on the stack")
      }
    }

    // 6. Elements this action removed: cancel their work, after it has started.
    let removed = idsBefore.subtracting(state[keyPath: toStack].ids)
    return .merge(
      [elementEffects, parentEffects]
        + removed.map { .cancel(id: ReferenceChild(slot: slot, child: $0)) }
    )
  }
}
