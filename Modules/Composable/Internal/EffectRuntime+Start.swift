package import Dependencies

// The one interpreter of effect trees. A reducer's effect is started synchronously by the
// store; work that has to wait (the rest of a concatenation) runs in a task that starts each
// step with the same interpreter and waits for it.

extension EffectRuntime {
  /// Starts an effect returned by a reducer.
  ///
  /// Synchronous parts happen before this returns: actions from ``Effect/send(_:)`` are
  /// appended to `actions` in order, and cancellations take effect. Asynchronous parts start
  /// in new tasks that join `group`, which is created with its ``Send`` (by `makeSend`) the
  /// first time a task is needed.
  ///
  /// The tasks are created with `dependencies` bound, and copy them, as a new task copies every
  /// task-local bound where it is created: a run made with them (nearly every run, since they
  /// are the ones its reducer ran with) then binds no dependencies in its task.
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
    var starting = Starting(
      runtime: self,
      origin: origin,
      dependencies: dependencies,
      group: group,
      makeSend: makeSend
    )
    // NB: Binding costs a task-local push and pop, which an effect that starts no task (the
    // navigation operators' own, on every push and pop) does not need.
    if effect.isSynchronous {
      starting.start(effect, keys: SmallArray())
    } else {
      DependencyValues.$_current.withValue(dependencies) {
        starting.start(effect, keys: SmallArray())
      }
    }
    group = starting.group
    actions += starting.actions
    // NB: Cancelled tasks are woken only once the whole effect has been started: the tables
    // already reflect every cancellation, and their finishing work does not compete with the
    // rest of the start for the lock.
    for task in starting.cancelled { task.cancel() }
  }

  /// Runs an effect to completion inside a task that is already running: starts it with the
  /// same interpreter, sends what it sends synchronously, and waits for the tasks it started,
  /// cancelling them when this task is cancelled.
  fileprivate func run<Action>(
    _ effect: Effect<Action>,
    keys: SmallArray<CancellationKey>,
    origin: Action,
    group: EffectGroup,
    send: Send<Action>
  ) async {
    var starting = Starting(
      runtime: self,
      origin: origin,
      dependencies: DependencyValues._current,
      group: group,
      send: send
    )
    starting.start(effect, keys: keys)
    for task in starting.cancelled { task.cancel() }
    for action in starting.actions {
      await send(action)
    }
    let tasks = starting.tasks ?? []
    await withTaskCancellationHandler {
      for task in tasks { _ = await task.result }
    } onCancel: {
      for task in tasks { task.cancel() }
    }
  }

  /// Runs an effect's work in a task that has to bind the dependencies or the reducer context
  /// the run was made with; a task that inherits both runs the work in its own closure.
  fileprivate static func execute<Action>(
    _ run: Effect<Action>.RunBox,
    send: Send<Action>,
    origin: Action,
    binding: TaskBinding
  ) async {
    let environment = run.environment
    switch binding {
    case .context:
      await ReducerContext.$ofTask.withValue(ReducerContext(environment.context)) {
        await perform(run, send: send, origin: origin)
      }
    case .dependencies:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await perform(run, send: send, origin: origin)
      }
    case .dependenciesAndContext:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await ReducerContext.$ofTask.withValue(ReducerContext(environment.context)) {
          await perform(run, send: send, origin: origin)
        }
      }
    }
  }

  /// Runs an effect's work with what is bound, and reports what it throws but its cancellation.
  fileprivate static func perform<Action>(
    _ run: Effect<Action>.RunBox,
    send: Send<Action>,
    origin: Action
  ) async {
    do {
      try await run.body(send)
    } catch {
      reportUnlessCancellation(error, of: run, origin: origin)
    }
  }

  /// Reports an error a run's work threw, unless it is the work's cancellation.
  fileprivate static func reportUnlessCancellation<Action>(
    _ error: any Error,
    of run: Effect<Action>.RunBox,
    origin: Action
  ) {
    guard !(error is CancellationError) else { return }
    run.location.reportIssue(
      """
      An "Effect.run" threw an unhandled error:

        \(error)

      The effect was started by this action:

        \(debugCaseOutput(origin))

      Handle the error with the "catch:" parameter of "Effect.run", or inside the operation, \
      so that the feature can tell the user what went wrong.
      """
    )
  }
}

/// One walk over an effect tree: what it sends synchronously, the tasks it starts and the
/// tasks it cancels.
private struct Starting<Action: Sendable> {
  /// Where the tasks started go: a group and its ``Send``, made on first use when the walk
  /// starts outside any task.
  private enum Sender {
    case unmade(EffectGroup?, make: (EffectGroup) -> Send<Action>)
    case made(EffectGroup, Send<Action>)
  }

  let runtime: EffectRuntime
  let origin: Action
  private var sender: Sender
  private(set) var actions: [Action] = []
  /// The tasks started, when the walk runs inside a task that waits for them; `nil` otherwise.
  private(set) var tasks: [EffectTask]?
  private(set) var cancelled: [EffectTask] = []
  private var prefixes = EffectRuntime.PrefixCache()
  /// The dependencies bound where the walk creates its tasks, which the tasks inherit.
  private let dependencies: DependencyValues
  /// Whether the tasks the walk starts inherit the root reducer context; read when the first
  /// run made at the root starts.
  private var inheritsRootContext: Bool?

  init(
    runtime: EffectRuntime,
    origin: Action,
    dependencies: DependencyValues,
    group: EffectGroup?,
    makeSend: @escaping (EffectGroup) -> Send<Action>
  ) {
    self.runtime = runtime
    self.origin = origin
    self.dependencies = dependencies
    self.sender = .unmade(group, make: makeSend)
  }

  init(
    runtime: EffectRuntime,
    origin: Action,
    dependencies: DependencyValues,
    group: EffectGroup,
    send: Send<Action>
  ) {
    self.runtime = runtime
    self.origin = origin
    self.dependencies = dependencies
    self.sender = .made(group, send)
    self.tasks = []
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
  /// NB: The walk is a loop rather than a recursion, and a merge is walked in place: the walk
  /// keeps a cursor into each merge it is inside, with the merge's parts, whose type does not
  /// depend on the action. Unspecialised, an array of a generic element looks up its metadata
  /// on each use, some 700 instructions a node, three times for each effect that a merge starts
  /// under an identifier and a merge later cancels; and a stack of every part waiting had to be
  /// allocated as large as the merge.
  ///
  /// A cursor keeps the number of keys that enclose its merge rather than a copy of the keys:
  /// the walk is depth first and only appends keys as it descends, so a part's keys are the
  /// first of the walk's keys when the part's turn comes.
  mutating func start(_ effect: Effect<Action>, keys: SmallArray<CancellationKey>) {
    var (effect, keys, keyCount) = (effect, keys, keys.count)
    var merges: [MergeCursor] = []
    while true {
      if let box = effect.box {
        switch box.kind {
        case .send:
          actions.append(unsafeDowncast(box, to: Effect<Action>.SendBox.self).action)
        case .run:
          startRun(unsafeDowncast(box, to: Effect<Action>.RunBox.self), keys: keys)
        case .merge:
          merges.append(
            MergeCursor(
              parts: unsafeDowncast(box, to: Effect<Action>.PartsBox.self).parts,
              keyCount: keyCount
            )
          )
        case .concatenate:
          startConcatenation(
            unsafeDowncast(box, to: Effect<Action>.PartsBox.self).parts,
            keys: keys
          )
        case .cancellable:
          let cancellable = unsafeDowncast(box, to: Effect<Action>.CancellableBox.self)
          if cancellable.cancelInFlight {
            runtime.detach(cancellable.key, into: &cancelled)
          }
          keys.append(cancellable.key)
          keyCount += 1
          effect = cancellable.effect
          continue
        case .cancel:
          runtime.detach(
            unsafeDowncast(box, to: Effect<Action>.CancelBox.self).key,
            into: &cancelled
          )
        case .reconcile:
          let reconciliation = unsafeDowncast(box, to: Effect<Action>.ReconcileBox.self)
            .reconciliation
          cancelled +=
            runtime.detachChildren(
              of: reconciliation.slot,
              marker: reconciliation.marker,
              removed: reconciliation.removed,
              keeping: reconciliation.keeps
            ).tasks
        }
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
    let (runtime, origin, priority) = (runtime, origin, run.priority)
    let binding = taskBinding(for: run)
    let task = runtime.spawn(keys: keys, prefixes: &prefixes, origin: origin, group: group) {
      token in
      // NB: The task keeps the box, one reference, rather than copies of its fields. A task
      // that binds nothing runs the work in this closure rather than in a function of its own:
      // each asynchronous call takes a frame from the task's first 984-byte block of memory,
      // which the work of an effect that sleeps until it is cancelled otherwise overflows.
      Task(priority: priority) {
        if let binding {
          await EffectRuntime.execute(run, send: send, origin: origin, binding: binding)
        } else {
          do {
            try await run.body(send)
          } catch {
            EffectRuntime.reportUnlessCancellation(error, of: run, origin: origin)
          }
        }
        runtime.finish(token)
      }
    }
    tasks?.append(task)
  }

  /// What the task of `run` has to bind: the dependencies and the reducer context the run was
  /// made with, where they differ from those the task inherits; `nil` when neither does.
  ///
  /// NB: Decided here, where the task is created and copies the task-locals bound, rather than
  /// by looking them up inside the task. Most runs come from a store's root feature, with the
  /// store's dependencies, and most tasks start with the root context.
  private mutating func taskBinding(for run: Effect<Action>.RunBox) -> TaskBinding? {
    let environment = run.environment
    let inheritsDependencies = environment.dependencies.isIdentical(to: dependencies)
    let inheritsContext: Bool
    if environment.context.isRoot {
      if inheritsRootContext == nil {
        inheritsRootContext = ReducerContext.ofTask.isRoot
      }
      inheritsContext = inheritsRootContext == true
    } else {
      inheritsContext = false
    }
    switch (inheritsDependencies, inheritsContext) {
    case (true, true): return nil
    case (true, false): return .context
    case (false, true): return .dependencies
    case (false, false): return .dependenciesAndContext
    }
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
    let (runtime, origin, rest) = (runtime, origin, Array(remaining))
    let task = runtime.spawn(keys: keys, prefixes: &prefixes, origin: origin, group: group) {
      token in
      Task {
        for part in rest where !Task.isCancelled {
          await runtime.run(Effect(box: part), keys: keys, origin: origin, group: group, send: send)
        }
        runtime.finish(token)
      }
    }
    tasks?.append(task)
  }
}

extension Effect {
  /// Whether starting the effect does all of its work immediately, without a task.
  var isSynchronous: Bool {
    guard let box else { return true }
    switch box.kind {
    case .send, .cancel, .reconcile:
      return true
    case .run:
      return false
    case .merge, .concatenate:
      return unsafeDowncast(box, to: PartsBox.self).parts.allSatisfy {
        Effect(box: $0).isSynchronous
      }
    case .cancellable:
      return unsafeDowncast(box, to: CancellableBox.self).effect.isSynchronous
    }
  }
}

/// The task-locals a run's task binds before the work: those of the run's environment that
/// differ from the ones the task inherited where it was created.
private enum TaskBinding {
  case context
  case dependencies
  case dependenciesAndContext
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

extension DependencyValues {
  /// Whether the two hold the same storage, and so the same dependencies.
  ///
  /// NB: Compared as bytes, word by word: the values are two references, to storage that is
  /// copied on write, so equal bytes are equal dependencies. The dependencies themselves cannot
  /// be compared.
  fileprivate func isIdentical(to other: Self) -> Bool {
    withUnsafeBytes(of: self) { bytes in
      withUnsafeBytes(of: other) { otherBytes in
        let wordSize = MemoryLayout<UInt>.size
        var offset = 0
        while offset + wordSize <= bytes.count {
          guard
            bytes.loadUnaligned(fromByteOffset: offset, as: UInt.self)
              == otherBytes.loadUnaligned(fromByteOffset: offset, as: UInt.self)
          else { return false }
          offset += wordSize
        }
        return bytes[offset...].elementsEqual(otherBytes[offset...])
      }
    }
  }
}
