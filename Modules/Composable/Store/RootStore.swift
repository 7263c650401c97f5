package import Dependencies

/// The engine behind a ``Store`` and a test store: it owns the state, runs the reducer and
/// starts the effects.
///
/// Actions are processed in batches. An action sent from outside starts a batch; actions that
/// effects send synchronously (``Effect/send(_:)``) join it and are reduced in order; and
/// observers hear about the batch once it is over. An action sent while a batch is running is
/// queued, never reduced re-entrantly.
@MainActor
package final class RootStore<State, Action: Sendable> {
  /// The current state. The reducer mutates it in place.
  package private(set) var state: State

  /// The dependencies the reducer and its effects run with.
  package var dependencies: DependencyValues

  /// The store's effects.
  nonisolated package let runtime: EffectRuntime

  /// Called after each action is reduced, with the action and the new state.
  package var didReduce: (@MainActor (Action, State) -> Void)?

  private let reducer: any Reducer<State, Action>
  private var bufferedActions: [Action] = []
  private var isSending = false
  private var observations: [Weak<StoreObservation>] = []

  package init(
    state: State,
    reducer: any Reducer<State, Action>,
    dependencies: DependencyValues,
    runtime: EffectRuntime = EffectRuntime()
  ) {
    self.state = state
    self.reducer = reducer
    self.dependencies = dependencies
    self.runtime = runtime
  }

  private lazy var effectSend = Send<Action> { [weak self] action in
    self?.send(action)
  }

  /// Reduces `action` and everything it synchronously sends, then notifies observers once.
  ///
  /// - Returns: The tasks of the effects started by the batch.
  @discardableResult
  package func send(_ action: Action) -> StoreTask {
    bufferedActions.append(action)
    guard !isSending else { return StoreTask(tasks: []) }

    isSending = true
    var tasks: [Task<Void, Never>] = []
    let send = effectSend
    DependencyValues.$_current.withValue(dependencies) {
      var index = 0
      while index < bufferedActions.count {
        let action = bufferedActions[index]
        index += 1
        let effect = reducer.reduce(into: &state, action: action)
        didReduce?(action, state)
        runtime.start(
          effect,
          origin: action,
          send: send,
          actions: &bufferedActions,
          tasks: &tasks
        )
      }
    }
    bufferedActions.removeAll(keepingCapacity: true)
    isSending = false
    notifyObservers()
    return StoreTask(tasks: tasks)
  }

  /// Calls `onChange` after every batch of actions until the returned observation is cancelled
  /// or released.
  package func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    let observation = StoreObservation(onChange: onChange)
    observations.append(Weak(observation))
    return observation
  }

  private func notifyObservers() {
    guard !observations.isEmpty else { return }
    observations.removeAll { $0.value?.isActive != true }
    for observation in observations {
      observation.value?.onChange()
    }
  }
}

private struct Weak<Object: AnyObject> {
  weak var value: Object?

  init(_ value: Object) {
    self.value = value
  }
}
