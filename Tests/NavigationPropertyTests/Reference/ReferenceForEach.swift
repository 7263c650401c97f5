import CasePaths
import Composable
import Dependencies
import IssueReporting

extension Reducer {
  /// The reference `forEach`: what `forEach` does, written as plainly as it can be. Run by a
  /// ``ReferenceStore``.
  ///
  /// It stands on the public API and on two hooks of the core: `NavigationContext`, which runs
  /// the element's reducer as the element, so that its cancellation identifiers and `dismiss()`
  /// are its own, and `Effect.parts`, in which ``Effect/lifted(embed:dismiss:)`` and the store
  /// read effects.
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

/// The identifier all the work of one child of a reference operator is cancellable under: its
/// slot and itself.
struct ReferenceChild<Child: Hashable & Sendable>: Hashable, Sendable {
  let slot: String
  let child: Child
}

struct ReferenceForEach<Parent: Reducer, Element: Reducer>: Reducer {
  let parent: Parent
  let element: Element
  let toStack: WritableKeyPath<Parent.State, StackState<Element.State>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>

  /// The stack's slot in its parent: the key path to it.
  var slot: String { "\(toStack)" }

  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // 1. Elements another reducer removed since the last action: cancel their work.
    let (effects, path) = (ReferenceEffects.current, NavigationContext.path)
    let withWork = effects?.children(ReferenceChild<StackElementID>.self, at: path) ?? []
    let removedElsewhere = withWork.filter {
      $0.slot == slot && !state[keyPath: toStack].ids.contains($0.child)
    }
    for child in removedElsewhere {
      effects?.cancel(ReferenceKey(id: child, path: path))
    }
    let idsBefore = state[keyPath: toStack].ids

    // 2–4. Find the element, run it as the element, lift its effects.
    var elementEffects = Effect<Parent.Action>.none
    switch toStackAction.extract(from: action) {
    case .element(let id, let elementAction):
      guard state[keyPath: toStack][id: id] != nil else {
        if !removedElsewhere.contains(where: { $0.child == id }) {
          reportIssue("forEach: an action for element \(id), which is not on the stack")
        }
        break
      }
      let effect = NavigationContext.inChild(id, of: slot) {
        withDependencies {
          $0.dismiss = .reference
        } operation: {
          element.reduce(into: &state[keyPath: toStack][id: id]!, action: elementAction)
        }
      }
      let toStackAction = toStackAction
      elementEffects = effect.lifted(
        embed: { toStackAction.embed(.element(id: id, action: $0)) },
        dismiss: { toStackAction.embed(.popFrom(id: id)) }
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
      state[keyPath: toStack][id: id] = elementState

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

// MARK: - A child's effects, lifted into its parent's

extension Effect {
  /// The effect of a child as its parent's: every action embedded with `embed`, and `dismiss()`
  /// in every run sending `dismissAction()` to the parent, through that run's own send, so that
  /// a cancelled run dismisses nothing.
  func lifted<ParentAction: Sendable>(
    embed: @escaping @Sendable (Action) -> ParentAction,
    dismiss dismissAction: @escaping @Sendable () -> ParentAction
  ) -> Effect<ParentAction> {
    switch parts {
    case nil:
      return .none
    case .send(let action):
      return .send(embed(action))
    case .run(let work):
      return Effect<ParentAction>(
        parts: .run { send in
          try await DismissEffect.$referenceDismissal.withValue({ send(dismissAction()) }) {
            try await work(Send { send(embed($0)) })
          }
        }
      )
    case .merge(let effects):
      return .merge(effects.map { $0.lifted(embed: embed, dismiss: dismissAction) })
    case .concatenate(let effects):
      return .concatenate(effects.map { $0.lifted(embed: embed, dismiss: dismissAction) })
    case .cancellable(let key, let cancelInFlight, let effect):
      return Effect<ParentAction>(
        parts: .cancellable(
          key,
          cancelInFlight: cancelInFlight,
          effect.lifted(embed: embed, dismiss: dismissAction)
        )
      )
    }
  }
}

extension DismissEffect {
  /// The `dismiss` of a child of a reference operator: it calls ``referenceDismissal``.
  static var reference: Self {
    DismissEffect { referenceDismissal?() }
  }

  /// The dismissal of the child whose work runs: set around every run of a child's work by
  /// ``Effect/lifted(embed:dismiss:)``.
  @TaskLocal static var referenceDismissal: (@MainActor @Sendable () -> Void)?
}
