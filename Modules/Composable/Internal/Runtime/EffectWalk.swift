package import Dependencies

// The one interpreter of effect trees: a walk over an effect that sends what it sends, starts
// its work in tasks (`EffectTask.swift`) and cancels what it cancels. A reducer's effect is
// started synchronously by the store; a concatenation, in `EffectWalk+Concatenation.swift`.

extension EffectRuntime {
  /// Starts the effect a reducer returned for `origin`: before this returns, the actions it
  /// sends synchronously are appended to `actions` in order and its cancellations take effect;
  /// its work starts in tasks that join `group`, made with its ``Send`` (by `makeSend`) when the
  /// first task starts.
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
}

/// One walk over an effect tree: what it sends synchronously, starts and cancels.
struct EffectWalk<Action: Sendable> {
  /// The group the tasks join and its ``Send``, made on first use outside any task.
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
  var prefixes = EffectRuntime.PrefixCache()

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
  mutating func groupAndSend() -> (EffectGroup, Send<Action>) {
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

  /// Starts the parts of `effect` in order, under `keys`: a loop, depth first, with a cursor into
  /// each merge it is inside; a part's keys are the first of the walk's keys when its turn
  /// comes, because the walk only appends keys as it descends.
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
