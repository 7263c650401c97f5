package import Dependencies

// The one interpreter of effect trees: a walk over an effect that sends what it sends, starts
// its work in tasks (`EffectTask.swift`) and cancels what it cancels. A reducer's effect is
// started synchronously by the store; the rest of a concatenation runs in a task that starts
// each part with the same walk and waits for it.

extension EffectRuntime {
  /// Starts an effect returned by a reducer.
  ///
  /// Synchronous parts happen before this returns: actions from ``Effect/send(_:)`` are
  /// appended to `actions` in order, and cancellations take effect. Asynchronous parts start
  /// in new tasks that join `group`, which is created with its ``Send`` (by `makeSend`) the
  /// first time a task is needed. The tasks are created with `dependencies` bound, and so
  /// inherit them (see `TaskInheritance`).
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - origin: The action whose reduction returned the effect.
  ///   - dependencies: The store's dependencies, with which its reducer ran.
  ///   - group: The group the tasks join; created when `nil` and a task starts.
  ///   - makeSend: Makes the ``Send`` that delivers a group's actions back to the store.
  ///   - actions: Receives synchronously sent actions.
  package func start<Action>(
    _ effect: Effect<Action>,
    origin: Action,
    dependencies: DependencyValues,
    group: inout EffectGroup?,
    makeSend: @escaping (EffectGroup) -> Send<Action>,
    actions: inout [Action]
  ) {
    if effect.isNone { return }
    var walk = EffectWalk(
      runtime: self,
      origin: origin,
      inheritance: TaskInheritance(dependencies: dependencies),
      sender: .unmade(group, make: makeSend)
    )
    // NB: Every task inherits the store's dependencies, bound here only for a walk that starts
    // a task (`StoreTests`; `Benchmarks/instruction-counts`, push-pop).
    if !effect.isSynchronous {
      DependencyValues.$_current.withValue(dependencies) {
        walk.start(effect, keys: SmallArray())
      }
    } else {
      walk.start(effect, keys: SmallArray())
    }
    group = walk.group
    actions += walk.actions
    // Tasks cancelled by identifier are woken once the whole effect has started, the registry
    // already without them; a reconciliation cancels at once (`EffectRuntime.reconcile`).
    for task in walk.cancelled { task.cancel() }
  }

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

/// One walk over an effect tree: what it sends synchronously, the tasks it starts and the
/// tasks it cancels.
private struct EffectWalk<Action: Sendable> {
  /// Where the tasks started go: a group and its ``Send``, made on first use when the walk
  /// starts outside any task.
  enum Sender {
    case unmade(EffectGroup?, make: (EffectGroup) -> Send<Action>)
    case made(EffectGroup, Send<Action>)
  }

  let runtime: EffectRuntime
  let origin: Action
  /// What the tasks the walk creates inherit, and so what each has to bind.
  var inheritance: TaskInheritance
  var sender: Sender
  private(set) var actions: [Action] = []
  /// The tasks started, when the walk runs inside a task that waits for them; `nil` otherwise.
  var tasks: [EffectTask]?
  private(set) var cancelled: [EffectTask] = []
  private var prefixes = EffectRuntime.PrefixCache()

  init(runtime: EffectRuntime, origin: Action, inheritance: TaskInheritance, sender: Sender) {
    self.runtime = runtime
    self.origin = origin
    self.inheritance = inheritance
    self.sender = sender
  }

  /// The group the started tasks joined, if any.
  var group: EffectGroup? {
    switch sender {
    case .unmade(let group, _): group
    case .made(let group, _): group
    }
  }

  /// The group new tasks join and the ``Send`` their actions go through.
  private mutating func groupAndSend() -> (EffectGroup, Send<Action>) {
    switch sender {
    case .made(let group, let send):
      return (group, send)
    case .unmade(let group, let make):
      let group = group ?? EffectGroup()
      let send = make(group)
      sender = .made(group, send)
      return (group, send)
    }
  }

  /// Starts the parts of `effect` in order, under `keys`.
  ///
  /// The walk is a loop, depth first: it keeps a cursor into each merge it is inside, and a
  /// part's keys are the first of the walk's keys when the part's turn comes, because the walk
  /// only appends keys as it descends. The cursors hold boxes, whose type does not depend on
  /// the action (see `EffectBox`), so the unspecialised walk looks up no metadata for them.
  mutating func start(_ effect: Effect<Action>, keys: SmallArray<CancellationKey>) {
    var (effect, keys, keyCount) = (effect, keys, keys.count)
    var merges: [MergeCursor] = []
    while true {
      switch effect.operation {
      case nil:
        break
      case .send(let send):
        actions.append(send.action)
      case .run(let run):
        startRun(run, keys: keys)
      case .merge(let merge):
        merges.append(MergeCursor(parts: merge.parts, keyCount: keyCount))
      case .concatenate(let concatenation):
        startConcatenation(concatenation.parts, keys: keys)
      case .cancellable(let cancellable):
        if cancellable.cancelInFlight {
          runtime.unregisterTasks(under: cancellable.key, into: &cancelled)
        }
        keys.append(cancellable.key)
        keyCount += 1
        effect = cancellable.effect
        continue
      case .cancel(let cancel):
        runtime.unregisterTasks(under: cancel.key, into: &cancelled)
      case .reconcile(let reconcile):
        runtime.reconcile(reconcile.reconciliation)
      }
      guard let (part, partKeyCount) = Self.nextPart(of: &merges) else { return }
      keys.removeLast(keyCount - partKeyCount, of: keyCount)
      (effect, keyCount) = (Effect(box: part), partKeyCount)
    }
  }

  /// The next part of the innermost merge that has parts left, and the number of keys that
  /// enclose it; drops the merges it finishes.
  private static func nextPart(
    of merges: inout [MergeCursor]
  ) -> (part: EffectBox, keyCount: Int)? {
    while let innermost = merges.indices.last {
      if let part = merges[innermost].next() {
        return (part, merges[innermost].keyCount)
      }
      merges.removeLast()
    }
    return nil
  }

  /// Starts a run's work in a task of the group, registered under `keys`.
  private mutating func startRun(_ run: Effect<Action>.RunBox, keys: SmallArray<CancellationKey>) {
    let (group, send) = groupAndSend()
    let task = runtime.startTask(
      running: run,
      binding: inheritance.binding(for: run.environment),
      send: send,
      origin: origin,
      keys: keys,
      prefixes: &prefixes,
      group: group
    )
    tasks?.append(task)
  }

  /// Starts the synchronous effects at the head of a concatenation now, and the rest in a task
  /// that starts each after the one before has finished.
  private mutating func startConcatenation(_ parts: [EffectBox], keys: SmallArray<CancellationKey>)
  {
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

extension Effect {
  /// Whether starting the effect does all of its work immediately, without a task.
  var isSynchronous: Bool {
    switch operation {
    case nil, .send, .cancel, .reconcile:
      return true
    case .run:
      return false
    case .merge(let parts), .concatenate(let parts):
      return parts.parts.allSatisfy { Effect(box: $0).isSynchronous }
    case .cancellable(let cancellable):
      return cancellable.effect.isSynchronous
    }
  }
}

/// A walk's place in a merge: the merge's parts, the next to start, and the number of the
/// walk's keys that enclose the merge.
private struct MergeCursor {
  let parts: [EffectBox]
  let keyCount: Int
  private var nextIndex = 0

  init(parts: [EffectBox], keyCount: Int) {
    self.parts = parts
    self.keyCount = keyCount
  }

  /// The next part, or `nil` when every part has been taken.
  mutating func next() -> EffectBox? {
    guard nextIndex < parts.count else { return nil }
    defer { nextIndex += 1 }
    return parts[nextIndex]
  }
}
