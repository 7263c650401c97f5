public import CasePaths

extension Reducer {
  /// Runs a navigation stack: an element reducer for every element of a ``StackState``, with
  /// the parent reacting to what the elements do.
  ///
  /// For ``StackAction/element(id:action:)`` the element's reducer runs first, then this one.
  /// For ``StackAction/popFrom(id:)`` this reducer runs first, while the elements are still
  /// there, then they are popped. ``StackAction/push(id:state:)`` pushes before this reducer
  /// runs.
  ///
  /// Each element's effects, and those of the sheets and stacks inside it, are cancelled when it
  /// leaves the stack, whoever removes it: a `popFrom`, its own `dismiss`, this reducer or any
  /// other. A removal made while this operator runs cancels them at once, work started in the
  /// same action included; one made elsewhere (a reducer after this one, a grandparent replacing
  /// the path), when the next action reaches this operator. Cancel IDs inside an element are its
  /// own.
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
  /// `AllCasePaths`: the overload Swift picks for a literal such as `\.path`.
  ///
  /// It behaves exactly like the overload that takes a `CaseKeyPath`, which goes through
  /// type-erased machinery that boxes the action on every call; this one looks the case path
  /// up once, when the reducer is built.
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

/// What an action asks of a stack.
@usableFromInline
enum StackRequest {
  /// An action of the element with the ID.
  case element(StackElementID)
  /// A push of an element with the ID.
  case push(StackElementID)
  /// A pop of the element with the ID and of every element above it.
  case popFrom(StackElementID)
}

@usableFromInline
struct _StackReducer<Parent: Reducer, Element: Reducer>: Reducer
where Element.State: Sendable {
  @usableFromInline
  let parent: Parent
  @usableFromInline
  let toStackState: WritableKeyPath<Parent.State, StackState<Element.State>>
  @usableFromInline
  let toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>
  /// The identity of the stack's slot, built once: made of a key path, it allocates.
  @usableFromInline
  let slot: HashableIdentity
  /// What the action asks of the stack, if it is a stack action.
  @usableFromInline
  let request: (Parent.Action) -> StackRequest?
  /// Runs the element reducer on the element of an element action, in place, setting its
  /// effect; returns whether the element is on the stack.
  @usableFromInline
  let runElement: (inout Parent.State, Parent.Action, inout Effect<Element.Action>) -> Bool
  @usableFromInline
  let location: CodeLocation

  /// Builds the operator with its two steps that read the parent's action written as closures
  /// here, where `forEach` is written, so that they are compiled for the feature's types:
  /// compiled once for all types, as ``reduce(into:action:)`` is, extracting a case looks up
  /// metadata on every action, which costs more than a small element reducer. They give the
  /// effect back through `inout`, so that they are not generic over it. `ifLet` does the same.
  /// Guarded by `Benchmarks/instruction-counts` (element send).
  @inlinable
  init(
    parent: Parent,
    element: Element,
    toStackState: WritableKeyPath<Parent.State, StackState<Element.State>>,
    toStackAction: AnyCasePath<Parent.Action, StackAction<Element.State, Element.Action>>,
    location: CodeLocation
  ) {
    self.parent = parent
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.slot = .slot(toStackState)
    self.request = { action in
      switch toStackAction.extract(from: action) {
      case .element(let id, _): .element(id)
      case .popFrom(let id): .popFrom(id)
      case .push(let id, _): .push(id)
      case nil: nil
      }
    }
    self.runElement = { state, action, effect in
      guard case .element(let id, let elementAction) = toStackAction.extract(from: action) else {
        return false
      }
      return state[keyPath: toStackState].modify(id: id) {
        effect = element.reduce(into: &$0, action: elementAction)
      }
    }
    self.location = location
  }

  @usableFromInline
  func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action> {
    // NB: Read once: each read copies the context (`Benchmarks/instruction-counts`, send).
    let context = ReducerContext.current

    // 1. Reconcile: cancel the work of elements another reducer removed since the last action;
    // keep the IDs before this action (the reference's `idsBefore`, as a version).
    let (idsBefore, cancelledBeforehand) = cancelElementsRemovedElsewhere(
      &state[keyPath: toStackState], in: context)

    // 2. Find the element: what the action asks of the stack.
    let request = request(action)
    var elementEffects = Effect<Parent.Action>.none
    switch request {
    case .element(let id):
      // 3. Run it in its context, on the stack in place.
      var effect = Effect<Element.Action>.none
      var isOnStack = false
      // NB: Copied out first: a closure that captures `self` reads each field through its
      // metadata (`Benchmarks/instruction-counts`, element send).
      let run = runElement
      let child = context.reduce(entering: HashableIdentity(id), slot: slot, isDismissable: true) {
        isOnStack = run(&state, action, &effect)
      }
      if !isOnStack, !cancelledBeforehand.contains(child.id) {
        reportMissingElement(id, action: action)
      }
      // 4. Lift its effects into the parent's, under the element's key.
      if !effect.isNone {
        let toStackAction = toStackAction
        elementEffects = effect.lifted(
          from: child,
          embed: { toStackAction.embed(.element(id: id, action: $0)) },
          dismiss: { toStackAction.embed(.popFrom(id: id)) }
        )
      }

    case .push(let id):
      push(id, from: action, state: &state)

    case .popFrom, nil:
      break
    }

    // 5. The parent, then the pop, which the parent saw the elements before.
    let parentEffects = parent.reduce(into: &state, action: action)
    if case .popFrom(let id) = request {
      if state[keyPath: toStackState].contains(id: id) {
        state[keyPath: toStackState].pop(from: id)
      } else {
        reportMissingPop(id, action: action)
      }
    }

    // 6. Cancel the work of the elements this action removed, `idsBefore` minus the IDs now,
    // once the work it started has started.
    let removed = elementsRemoved(
      from: &state[keyPath: toStackState],
      since: idsBefore,
      ranElement: request,
      in: context
    )
    guard !removed.isEmpty else {
      return elementEffects.merge(with: parentEffects)
    }
    let slotPath = context.navigationIDPath.appending(identity: slot)
    return .merge(
      [elementEffects, parentEffects] + removed.map { .cancelChild($0, in: slotPath) }
    )
  }

  /// When a navigated child of the store has running work, takes the stack's log
  /// (``StackState/takeLog()``) and cancels the work of the elements a reducer that runs
  /// elsewhere removed since this operator last looked: one lookup when the stack has not changed
  /// since, one per removed element otherwise. Returns the IDs now and the elements cancelled.
  private func cancelElementsRemovedElsewhere(
    _ stack: inout StackState<Element.State>,
    in context: ReducerContext
  ) -> (StackIDsBefore, cancelled: [HashableIdentity]) {
    guard let runtime = context.runtime, runtime.hasNavigatedEffects else {
      return (stack.idsBefore, [])
    }
    let log = stack.takeLog()
    let ids = stack.ids
    let cancelled = runtime.reconcile(
      context.navigationIDPath.appending(identity: slot),
      stack: log
    ) { child in
      child.value(as: StackElementID.self).map(ids.contains) ?? true
    }
    return (StackIDsBefore(version: log.version), cancelled)
  }

  /// The elements this action removed: `idsBefore` minus the IDs now, read off the stack's log;
  /// when the log cannot tell (``StackIDsBefore/removed(in:)``), those with running work, and the
  /// element the action ran, that are not on the stack any more.
  ///
  /// Reads the stack through an `inout` access, which projects it in place where a read
  /// through the key path copies it out (`StackReducerTests`' writes in place).
  private func elementsRemoved(
    from stack: inout StackState<Element.State>,
    since idsBefore: StackIDsBefore,
    ranElement request: StackRequest?,
    in context: ReducerContext
  ) -> [HashableIdentity] {
    if let removed = idsBefore.removed(in: stack.log) {
      return removed.filter { !stack.contains(id: $0) }.map(HashableIdentity.init)
    }
    var candidates: [HashableIdentity] = []
    if let runtime = context.runtime, runtime.hasNavigatedEffects {
      candidates = runtime.liveChildren(in: context.navigationIDPath.appending(identity: slot))
    }
    if case .element(let id) = request {
      candidates.append(HashableIdentity(id))
    }
    return candidates.filter { child in
      child.value(as: StackElementID.self).map { !stack.contains(id: $0) } ?? false
    }
  }
}
