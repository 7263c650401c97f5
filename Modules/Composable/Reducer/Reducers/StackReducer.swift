public import CasePaths
import Dependencies
import IssueReporting

extension Reducer {
  /// Runs a navigation stack: an element reducer for every element of a ``StackState``, with
  /// the parent reacting to what the elements do.
  ///
  /// For ``StackAction/element(id:action:)`` the element's reducer runs first, then this one.
  /// For ``StackAction/popFrom(id:)`` this reducer runs first, while the elements are still
  /// there, then they are popped. ``StackAction/push(id:state:)`` pushes before this reducer
  /// runs.
  ///
  /// Each element's effects are tied to its presence: when it leaves the stack for any reason —
  /// a `popFrom`, this reducer removing it, the whole path being replaced, or the element
  /// calling the `dismiss` dependency — everything it started is cancelled, including the
  /// effects of sheets it presents. Cancel IDs used inside an element are private to it.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.path, action: \.path) { Path() }
  /// }
  /// ```
  ///
  /// > Important: Actions for an element that is not on the stack, pushes of an ID that is
  /// > already used, and pops of a missing element are reported as issues and ignored.
  ///
  /// - Parameters:
  ///   - toStackState: A writable key path to the stack's state.
  ///   - toStackAction: A case key path to the stack's actions.
  ///   - element: The reducer of one element.
  /// - Returns: A reducer that runs the stack and then `self`.
  public func forEach<
    ElementState: Sendable, ElementAction, Element: Reducer<ElementState, ElementAction>
  >(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<ElementState, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Element> {
    _StackReducer(
      parent: self,
      element: element(),
      toStackState: toStackState,
      toStackAction: AnyCasePath(toStackAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer returned by ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Sendable {
  let parent: Parent
  let element: Element
  let toStackState: WritableKeyPath<Parent.State, StackState<Element.State>>
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>
  let location: CodeLocation

  /// Runs the element reducer, then the parent, then pops; cancels the effects of every element
  /// that left the stack.
  public func reduce(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    // NB: Reading only the version keeps the stack's storage uniquely referenced, so writes to
    // an element below happen in place.
    let versionBefore = state[keyPath: toStackState].version
    let stackAction = toStackAction.extract(from: action)
    var elementEffects = Effect<Parent.Action>.none

    switch stackAction {
    case .element(let id, let elementAction):
      guard state[keyPath: toStackState].contains(id: id) else {
        reportMissingElement(id, action: action)
        return .none
      }
      elementEffects = reduceElement(id, action: elementAction, state: &state)

    case .popFrom(let id):
      guard state[keyPath: toStackState].contains(id: id) else {
        reportMissingElement(id, action: action)
        return .none
      }

    case .push(let id, let elementState):
      guard isValidPush(of: id, onto: state[keyPath: toStackState], action: action) else {
        return .none
      }
      @Dependency(\.stackElementID) var stackElementID
      stackElementID.skip(past: id)
      state[keyPath: toStackState].insert(elementState, id: id)

    case nil:
      break
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    if case .popFrom(let id) = stackAction {
      state[keyPath: toStackState].pop(from: id)
    }

    guard state[keyPath: toStackState].version != versionBefore else {
      return elementEffects.merge(with: parentEffects)
    }
    let remainingIDs = state[keyPath: toStackState].ids
    return .merge(
      elementEffects,
      parentEffects,
      .cancelNavigationScopes(under: stackScope) { component in
        guard let id = component.base as? StackElementID else { return true }
        return remainingIDs.contains(id)
      }
    )
  }

  /// The navigation scope of the stack; each element's scope is this plus its ID.
  private var stackScope: NavigationIDPath {
    DependencyValues._current.navigationIDPath.appending(StackScope(keyPath: toStackState))
  }

  private func reduceElement(
    _ id: StackElementID,
    action elementAction: Element.Action,
    state: inout Parent.State
  ) -> Effect<Parent.Action> {
    let elementScope = stackScope.appending(id)
    let effect = withDependencies {
      $0.navigationIDPath = elementScope
      $0.dismiss = DismissEffect(target: .scope(elementScope))
    } operation: {
      state[keyPath: toStackState].modify(id: id) {
        element.reduce(into: &$0, action: elementAction)
      }
    }
    guard let effect else { return .none }
    return effect.navigated(
      in: elementScope,
      embed: { [toStackAction] in toStackAction.embed(.element(id: id, action: $0)) },
      dismiss: { [toStackAction] in toStackAction.embed(.popFrom(id: id)) }
    )
  }

  private func isValidPush(
    of id: StackElementID,
    onto stack: StackState<Element.State>,
    action: Parent.Action
  ) -> Bool {
    if stack.contains(id: id) {
      location.reportIssue(
        """
        A "forEach" received a push of element \(id), but the stack already has an element with \
        that ID.

          Action:
            \(debugCaseOutput(action))

        Push new elements with IDs from the "stackElementID" dependency, or append them to the \
        "StackState", which generates them.
        """
      )
      return false
    }
    if let top = stack.ids.last, id < top {
      location.reportIssue(
        """
        A "forEach" received a push of element \(id), which is older than the top element \
        \(top).

          Action:
            \(debugCaseOutput(action))

        IDs grow as they are generated, so a push with an older ID is stale: it was probably \
        created before the stack changed.
        """
      )
      return false
    }
    return true
  }

  private func reportMissingElement(_ id: StackElementID, action: Parent.Action) {
    location.reportIssue(
      """
      A "forEach" received an action for element \(id), but the stack has no element with that \
      ID.

        Action:
          \(debugCaseOutput(action))

      The element was probably popped before the action arrived: a view sent it after the \
      screen went away, or an effect started outside the element (in the parent, or detached \
      from its store) sent it late. Effects the element itself returns are cancelled when it \
      leaves the stack and cannot do this.
      """
    )
  }
}

/// The navigation-path component of a stack, so that two stacks in one feature keep their
/// elements' scopes apart.
private struct StackScope: Hashable, @unchecked Sendable {
  // NB: Key paths are immutable; hashing and comparing them from any thread is safe.
  let keyPath: AnyKeyPath
}

extension StackState {
  /// Whether an element with the given ID is on the stack.
  package func contains(id: StackElementID) -> Bool {
    storage.elements.index(forKey: id) != nil
  }
}
