// The actions queued behind the one being reduced, each with the group its effects join.

extension RootStore {
  // NB: Only this file's functions name the buffer's element type, whose metadata a function
  // looks up on entry even when unused (`Benchmarks/instruction-counts`, element send).

  /// Queues an action behind the one being reduced, with the group its effects join.
  func enqueue(_ action: Action, group: EffectGroup?) {
    bufferedActions.append((action, group))
    hasBufferedActions = true
  }

  /// Queues actions behind the one being reduced, with the group their effects join.
  func enqueue(contentsOf actions: [Action], group: EffectGroup?) {
    for action in actions {
      enqueue(action, group: group)
    }
  }

  /// Processes the queued action at `index`; returns whether there is one.
  func processBufferedAction(
    at index: Int,
    batchGroup: inout EffectGroup?,
    synchronousActions: inout [Action]
  ) -> Bool {
    guard index < bufferedActions.count else { return false }
    let (action, group) = bufferedActions[index]
    process(action, group: group, batchGroup: &batchGroup, synchronousActions: &synchronousActions)
    return true
  }
}
