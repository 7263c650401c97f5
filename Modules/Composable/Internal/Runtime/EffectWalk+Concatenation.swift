import Dependencies

// A concatenation: its synchronous head starts with the rest of the walk, and the rest runs in
// a task (`startTask(runningInTurn:…)`) that starts each part with a walk of its own and waits
// for it before the next.

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
      dependencies: DependencyValues._current,
      group: group,
      send: send,
      makeSend: { _ in send }
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

extension EffectRuntime {
  /// Starts a task in `group`, under `keys`, that runs `parts` (the rest of a concatenation) in
  /// turn, each to its end.
  func startTask<Action>(
    runningInTurn parts: [EffectBox],
    send: Send<Action>,
    origin: Action,
    keys: SmallArray<CancellationKey>,
    group: EffectGroup
  ) -> Task<Void, any Error> {
    spawn(keys: keys, origin: origin, group: group) { token in
      Task {
        for part in parts where !Task.isCancelled {
          await self.run(Effect(box: part), keys: keys, origin: origin, group: group, send: send)
        }
        self.taskDidFinish(token)
      }
    }
  }
}
