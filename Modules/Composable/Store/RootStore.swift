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
  /// The actions queued behind the one being reduced, with the group each joins (`nil`: the
  /// batch's); see `RootStore+Queue.swift`.
  var bufferedActions: [(action: Action, group: EffectGroup?)] = []
  /// Whether the batch has queued anything, so that a lone action never touches the buffer.
  var hasBufferedActions = false
  private var isSending = false
  /// Tells one observer about a batch; returns whether the observer is still there.
  var observers: [@MainActor () -> Bool] = []

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

  deinit {
    // A released store's effects can neither deliver their actions nor be cancelled by anyone.
    runtime.cancelAll()
  }

  /// Makes the ``Send`` through which the effects of `group` deliver their actions, so that the
  /// effects of those actions join the same group. (In which context they are reduced:
  /// `ReducerContext.sendingBackFromEffect(_:)`.)
  private lazy var makeSend: (EffectGroup) -> Send<Action> = { [weak self] group in
    Send { [weak self] action in
      ReducerContext.sendingBackFromEffect {
        self?.send(action, group: group)
      }
    }
  }

  /// Reduces `action` and everything it synchronously sends, then notifies observers once.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - group: The group the effects join: an effect's, for an action it sends; `nil` for an
  ///     action from outside, which starts a group of its own.
  /// - Returns: The effects the action started, and those of the actions they send.
  @discardableResult
  package func send(_ action: Action, group: EffectGroup? = nil) -> StoreTask {
    guard !isSending else {
      // NB: Never re-entered: an action sent while a batch runs is queued, its group made now so
      // that the handle covers its effects (`StoreTests`).
      let group = group ?? EffectGroup()
      enqueue(action, group: group)
      return StoreTask(group: group)
    }

    isSending = true
    var batchGroup = group
    var synchronousActions: [Action] = []
    // NB: The first action never goes through the buffer, whose every use looks up metadata
    // (`Benchmarks/allocation-thresholds` Stack.ElementSend, `instruction-counts` element send).
    process(action, group: nil, batchGroup: &batchGroup, synchronousActions: &synchronousActions)
    var index = 0
    while hasBufferedActions,
      processBufferedAction(
        at: index, batchGroup: &batchGroup, synchronousActions: &synchronousActions)
    {
      index += 1
    }
    if hasBufferedActions {
      bufferedActions.removeAll(keepingCapacity: true)
      hasBufferedActions = false
    }
    isSending = false
    notifyObservers()
    return StoreTask(group: batchGroup)
  }

  /// Reduces one action of the batch and starts its effects; actions they send synchronously
  /// join the queue.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - actionGroup: The group its effects join, or `nil` for the batch's own group.
  ///   - batchGroup: The batch's group, made when its first task starts.
  ///   - synchronousActions: Scratch space for the actions the effects send synchronously.
  func process(
    _ action: Action,
    group actionGroup: EffectGroup?,
    batchGroup: inout EffectGroup?,
    synchronousActions: inout [Action]
  ) {
    let effect = ReducerContext.reduceAtRoot(
      reducer,
      into: &state,
      action: action,
      runtime: runtime,
      dependencies: dependencies
    )
    didReduce?(action, state)
    guard !effect.isNone else { return }
    var group = actionGroup ?? batchGroup
    runtime.start(
      effect,
      origin: action,
      dependencies: dependencies,
      group: &group,
      makeSend: makeSend,
      actions: &synchronousActions
    )
    if actionGroup == nil {
      batchGroup = group
    }
    if !synchronousActions.isEmpty {
      enqueue(contentsOf: synchronousActions, group: actionGroup)
      synchronousActions.removeAll(keepingCapacity: true)
    }
  }

  /// A new ID for an element pushed from outside the reducer.
  package func makeStackElementID() -> StackElementID {
    dependencies.stackElementID()
  }
}
