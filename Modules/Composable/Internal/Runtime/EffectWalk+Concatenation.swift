import Dependencies

// A concatenation: its synchronous head starts with the rest of the walk, and the rest runs in
// a task (`EffectRuntime.startTask(runningInTurn:…)`) that starts each part with a walk of its
// own and waits for it before the next.

extension EffectWalk {
  /// Starts the synchronous effects at the head of a concatenation now, and the rest in a task
  /// that starts each after the one before has finished.
  mutating func startConcatenation(_ parts: [EffectBox], keys: SmallArray<CancellationKey>) {
    var remaining = parts[...]
    while let first = remaining.first.map(Effect<Action>.init(box:)), first.isSynchronous {
      start(first, keys: keys)
      remaining.removeFirst()
    }
    guard !remaining.isEmpty else { return }
    let (group, send) = groupAndSend()
    let task = runtime.startTask(
      runningInTurn: Array(remaining),
      send: send,
      origin: origin,
      keys: keys,
      prefixes: &prefixes,
      group: group
    )
    tasks?.append(task)
  }
}

extension EffectRuntime {
  /// Runs an effect to completion inside a task that is already running: starts it with the
  /// same interpreter, sends what it sends synchronously, and waits for the tasks it started,
  /// cancelling them when this task is cancelled.
  func run<Action>(
    _ effect: Effect<Action>,
    keys: SmallArray<CancellationKey>,
    origin: Action,
    group: EffectGroup,
    send: Send<Action>
  ) async {
    var walk = EffectWalk(
      runtime: self,
      origin: origin,
      inheritance: TaskInheritance(dependencies: DependencyValues._current),
      sender: .made(group, send)
    )
    walk.tasks = []
    walk.start(effect, keys: keys)
    for task in walk.cancelled { task.cancel() }
    for action in walk.actions {
      await send(action)
    }
    let tasks = walk.tasks ?? []
    await withTaskCancellationHandler {
      for task in tasks { _ = await task.result }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
  }
}
