public import Dependencies

/// The runtime of a feature: it holds the state, runs the reducer for each action, starts the
/// effects, and tells a view layer when to re-render.
///
/// A store lives on the main actor. The reducer mutates the state in place, so a change to one
/// element of a large collection costs the same however large the collection is. Child stores
/// made with ``scope(state:action:)`` read and send through the root, so they never hold a
/// stale copy. The store owns its effects: when the last reference to it (or to a store scoped
/// from it) goes away, every effect still running is cancelled.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) {
///   AppFeature()
/// } withDependencies: {
///   $0.continuousClock = ContinuousClock()
/// }
/// store.send(.list(.addButtonTapped))
/// let observation = store.observe { render(store.state) }
/// ```
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable> {
  let toState: @MainActor () -> State
  let toSend: @MainActor (Action) -> StoreTask
  /// The root store's effects, which every store scoped from it shares.
  let runtime: EffectRuntime
  /// The root store's observation and stack element IDs, which every store scoped from it
  /// shares: these closures keep the root store alive.
  let observeRoot: @MainActor (@escaping @MainActor () -> Void) -> StoreObservation
  let makeRootStackElementID: @MainActor () -> StackElementID

  /// Creates a store.
  ///
  /// The initial state and the reducer are built with the store's dependencies in effect, so
  /// identifiers they create (such as stack element IDs) come from the same generators the
  /// reducer will use.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The reducer that runs the feature.
  ///   - prepareDependencies: Overrides dependencies for the reducer and every effect it
  ///     starts.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = DependencyValues.forNewStore(
      initialState: initialState,
      reducer: reducer,
      prepare: { prepareDependencies?(&$0) }
    )
    self.init(
      root: RootStore(state: state, reducer: reducer, dependencies: dependencies)
    )
  }

  package convenience init(root: RootStore<State, Action>) {
    self.init(
      toState: { root.state },
      toSend: { root.send($0) },
      runtime: root.runtime,
      observeRoot: { root.observe($0) },
      makeRootStackElementID: { root.makeStackElementID() }
    )
  }

  init(
    toState: @escaping @MainActor () -> State,
    toSend: @escaping @MainActor (Action) -> StoreTask,
    runtime: EffectRuntime,
    observeRoot: @escaping @MainActor (@escaping @MainActor () -> Void) -> StoreObservation,
    makeRootStackElementID: @escaping @MainActor () -> StackElementID
  ) {
    self.toState = toState
    self.toSend = toSend
    self.runtime = runtime
    self.observeRoot = observeRoot
    self.makeRootStackElementID = makeRootStackElementID
  }

  /// The current state.
  public var state: State {
    toState()
  }

  /// Reads a property of the current state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// Sends an action to the store.
  ///
  /// The reducer runs synchronously, followed by any actions its effects send synchronously;
  /// observers are notified once when all of that is done. Asynchronous effects start in the
  /// background.
  ///
  /// - Parameter action: The action.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    toSend(action)
  }

  /// Calls `onChange` after every batch of actions the store processes.
  ///
  /// A batch is an action sent from outside plus every action its effects send synchronously,
  /// so a view layer re-renders once per user event, not once per nested action.
  ///
  /// - Parameter onChange: Called on the main actor after each batch.
  /// - Returns: The subscription; notifications stop when it is cancelled or released.
  public func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    observeRoot(onChange)
  }

  /// A new ID for an element that a view layer pushes onto a stack with
  /// ``StackAction/push(id:state:)``.
  ///
  /// IDs come from the store's `stackElementID` generator, the one the reducer's own pushes and
  /// appends use, so an element pushed from outside never collides with one the reducer adds,
  /// or with one of the initial state built in the store's `initialState` closure.
  ///
  /// > Important: Build a stack that a store starts with (a restored session, a deep link)
  /// > inside `initialState`, where its IDs come from the same generator; a stack built before
  /// > the store exists has IDs from another one, which this generator may hand out again.
  ///
  /// ```swift
  /// let id = store.makeStackElementID()
  /// store.send(.path(.push(id: id, state: .detail(DetailFeature.State(standup: standup)))))
  /// ```
  ///
  /// - Returns: An ID the store's generator has not handed out before.
  public func makeStackElementID() -> StackElementID {
    makeRootStackElementID()
  }
}
