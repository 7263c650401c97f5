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
  /// Each element's effects are tied to its presence in the stack, whoever removes it: a
  /// `popFrom`, the element's own `dismiss`, this reducer, or any other reducer — one before
  /// this in a body, one after it, a grandparent replacing the whole path. A removal made while
  /// this operator runs (by the actions above, or by this reducer) cancels the element's effects
  /// at once, including work it started in the same action; a removal made anywhere else cancels
  /// them when the next action reaches this operator, before anything is routed to the stack.
  /// Effects of sheets and stacks inside an element are cancelled with it. Cancel IDs used inside an
  /// element are private to it.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.path, action: \.path) { Path() }
  /// }
  /// ```
  ///
  /// > Important: An action for an element that is not on the stack, a pop of a missing element
  /// > and a push of an ID already in use are reported as issues, and this reducer still runs.
  /// > In tests, a push of an ID the `stackElementID` generator has not produced yet is
  /// > reported too (it would collide with a later element). An action that an element's effect
  /// > sent after another reducer removed the element, before this operator noticed, is dropped
  /// > without an issue.
  ///
  /// - Parameters:
  ///   - toStackState: A writable key path to the stack's state.
  ///   - toStackAction: A case key path to the stack's actions.
  ///   - element: The reducer of one element.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the stack and then `self`.
  @inlinable
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
  ) -> some Reducer<State, Action> {
    _StackReducer(
      parent: self,
      element: element(),
      toStackState: toStackState,
      toStackAction: AnyCasePath(toStackAction),
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs a navigation stack, naming the stack's action case through the action's
  /// `AllCasePaths`.
  ///
  /// Swift picks this overload for a literal such as `\.path`. The case path is looked up once,
  /// when the reducer is built, and then matches actions with a plain `switch`; a `CaseKeyPath`
  /// goes through type-erased machinery that boxes the action on every call. It behaves exactly
  /// like the overload that takes a `CaseKeyPath`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) { Path() }
  /// ```
  ///
  /// - Parameters:
  ///   - toStackState: A writable key path to the stack's state.
  ///   - toStackAction: The stack's action case, as a member of the action's `AllCasePaths`.
  ///   - element: The reducer of one element.
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A reducer that runs the stack and then `self`.
  @_documentation(visibility: internal)
  @inlinable
  public func forEach<
    ElementState: Sendable, ElementAction, Element: Reducer<ElementState, ElementAction>
  >(
    _ toStackState: WritableKeyPath<State, StackState<ElementState>>,
    action toStackAction: KeyPath<
      Action.AllCasePaths, AnyCasePath<Action, StackAction<ElementState, ElementAction>>
    >,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> some Reducer<State, Action> where Action: CasePathable {
    _StackReducer(
      parent: self,
      element: element(),
      toStackState: toStackState,
      toStackAction: Action.allCasePaths[keyPath: toStackAction],
      location: CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

@usableFromInline
struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Sendable {
  @usableFromInline
  typealias Runner = NavigatedChildRunner<
    Parent.State, Parent.Action, Element, StackState<Element.State>,
    StackAction<Element.State, Element.Action>
  >

  let parent: Parent
  let element: Element
  let runner: Runner
  let location: CodeLocation

  // NB: The runner's closures are built here, where `forEach` is written, for the feature's
  // concrete types (see `NavigatedChildRunner`).
  @inlinable
  init(
    parent: Parent,
    element: Element,
    toStackState: WritableKeyPath<Parent.State, StackState<Element.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>,
    location: CodeLocation
  ) {
    self.init(
      parent: parent,
      element: element,
      toStackState: toStackState,
      toStackAction: toStackAction,
      location: location,
      request: { toStackAction, action in
        switch toStackAction.extract(from: action) {
        case .element(let id, _): .element(id)
        case .popFrom(let id): .popFrom(id)
        case .push(let id, _): .push(id)
        case nil: nil
        }
      },
      reduceElement: { element, toStackState, toStackAction, state, action, effect in
        guard case .element(let id, let elementAction) = toStackAction.extract(from: action) else {
          return false
        }
        return state[keyPath: toStackState].modify(id: id) {
          effect = element.reduce(into: &$0, action: elementAction)
        }
      }
    )
  }

  @usableFromInline
  init(
    parent: Parent,
    element: Element,
    toStackState: WritableKeyPath<Parent.State, StackState<Element.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>,
    location: CodeLocation,
    request: @escaping Runner.Request,
    reduceElement: @escaping Runner.ReduceChild
  ) {
    self.parent = parent
    self.element = element
    self.location = location
    self.runner = Runner(
      toState: toStackState,
      toAction: toStackAction,
      slot: .stack,
      isDismissable: true,
      request: request,
      reduceChild: reduceElement
    )
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // NB: Read once and passed down: each read copies the context.
    let context = ReducerContext.current
    let cancelledBeforehand = reconcileElementsRemovedElsewhere(&state, in: context)
    let versionBefore = version(of: &state[keyPath: runner.toState])
    let request = runner.request(runner.toAction, action)
    var elementEffects = Effect<Parent.Action>.none

    switch request {
    case .element(let id):
      // The element's reducer runs in the element's scope, and its effects are lifted into
      // the parent's, registered under the element (see `NavigatedChildRunner`).
      let scope = NavigatedScope(parent: context.navigationIDPath, slot: runner.slot, element: id)
      let toStackAction = runner.toAction
      let isOnStack: Bool
      (isOnStack, elementEffects) = runner.reduce(
        scope,
        in: context,
        state: &state,
        action: action,
        child: element
      ) { effect in
        effect.navigated(
          scope,
          embed: { toStackAction.embed(.element(id: id, action: $0)) },
          dismiss: { toStackAction.embed(.popFrom(id: id)) }
        )
      }
      if !isOnStack, !cancelledBeforehand.contains(where: { $0 == HashableIdentity(id) }) {
        reportMissingElement(id, action: action)
      }

    case .push(let id):
      push(id, from: action, state: &state)

    case .popFrom, .child, .dismiss, nil:
      break
    }

    let parentEffects = parent.reduce(into: &state, action: action)

    if case .popFrom(let id) = request {
      if state[keyPath: runner.toState].contains(id: id) {
        state[keyPath: runner.toState].pop(from: id)
      } else {
        reportMissingPop(id, action: action)
      }
    }

    guard version(of: &state[keyPath: runner.toState]) != versionBefore else {
      return elementEffects.merge(with: parentEffects)
    }
    @Dependency(\.stackElementID) var stackElementID
    // NB: A parent can delay this effect (behind asynchronous work in a concatenation); an
    // element pushed meanwhile has a newer ID and is not one this change removed.
    let reconciliation = reconciliation(
      of: &state[keyPath: runner.toState],
      in: context,
      keepingFrom: stackElementID.peek()
    )
    return .merge(elementEffects, parentEffects, .reconcile(reconciliation))
  }

  /// Cancels the effects of elements that left the stack since this operator last looked,
  /// removed by a reducer that runs elsewhere; returns them.
  ///
  /// Costs nothing when no navigated child of the store has running work, a lookup when the
  /// stack has not changed since, and otherwise a look at each element removed.
  private func reconcileElementsRemovedElsewhere(
    _ state: inout Parent.State,
    in context: ReducerContext
  ) -> [HashableIdentity] {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else { return [] }
    return runtime.reconcile(reconciliation(of: &state[keyPath: runner.toState], in: context))
  }

  /// Takes the stack's changes, through the in-place access, and makes the reconciliation that
  /// keeps the elements still on it and, from `newIDs` on, any pushed later.
  private func reconciliation(
    of stack: inout StackState<Element.State>,
    in context: ReducerContext,
    keepingFrom newIDs: StackElementID? = nil
  ) -> Reconciliation {
    let (changes, ids) = (stack.takeChanges(), stack.ids)
    return Reconciliation(slot: runner.slotPath(in: context), changes: changes) { child in
      guard let id = child.value(as: StackElementID.self) else { return true }
      return ids.contains(id) || newIDs.map { $0 <= id } == true
    }
  }

  /// The stack's version, read through an `inout` access, which projects the stack in place
  /// where a read through the key path copies it out.
  private func version(of stack: inout StackState<Element.State>) -> UInt64 {
    stack.version
  }

  /// Pushes the element of a push action.
  ///
  /// NB: Apart from ``reduce(into:action:)``, which would otherwise make room for the optional
  /// stack action, and look up its metadata, on every action.
  private func push(_ id: StackElementID, from action: Parent.Action, state: inout Parent.State) {
    guard case .push(_, let elementState) = runner.toAction.extract(from: action) else { return }
    push(elementState, id: id, onto: &state[keyPath: runner.toState], action: action)
  }

  /// Pushes an element with an ID made outside the reducer: reported when the ID is in use
  /// (nothing is pushed) or, in tests, when the generator has not produced it yet.
  private func push(
    _ elementState: Element.State,
    id: StackElementID,
    onto stack: inout StackState<Element.State>,
    action: Parent.Action
  ) {
    guard !stack.contains(id: id) else {
      reportDuplicatePush(id, action: action)
      return
    }
    @Dependency(\.stackElementID) var stackElementID
    if isTesting, stackElementID.peek() < id {
      reportPushAheadOfGenerator(id, next: stackElementID.peek(), action: action)
    }
    stackElementID.skip(past: id)
    stack.insert(elementState, id: id)
  }
}
