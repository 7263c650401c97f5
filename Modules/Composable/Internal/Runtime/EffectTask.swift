import Dependencies

// A task's life: started (`startTask`), registered before it can run (`spawn`), bound to what
// its effect needs and running the work (`perform`), unregistered (`taskDidFinish`).

extension EffectRuntime {
  /// Starts the task of `run` in `group`, registered under `keys`: it binds the task-locals
  /// `binding` says (see `EffectWalk.binding(for:)`), runs the work and unregisters itself.
  ///
  /// Invariant: a task whose run binds nothing holds, besides the work's frames, only its
  /// closure's frame, so that it fits the first block its allocator hands out. So the task
  /// throws although its operation never does (a non-throwing one is entered through a
  /// reabstraction thunk), `perform` is inlined into the closure, and what it calls
  /// (`reportUnlessCancellation`, `taskDidFinish`, the `perform` that binds) never is. Guarded by
  /// `Benchmarks/instruction-counts` (start + cancel, pop with effects).
  func startTask<Action>(
    running run: Effect<Action>.RunBox,
    binding: (dependencies: Bool, context: Bool),
    send: Send<Action>,
    origin: Action,
    keys: SmallArray<CancellationKey>,
    group: EffectGroup
  ) -> Task<Void, any Error> {
    let priority = run.priority
    return spawn(keys: keys, origin: origin, group: group) { token in
      // NB: The closure keeps the box, one reference, not its fields, to stay in the task's first
      // block (see above; `Benchmarks/instruction-counts`, start + cancel).
      Task(priority: priority) {
        if binding.dependencies || binding.context {
          await EffectRuntime.perform(run, binding: binding, send: send, origin: origin)
        } else {
          await EffectRuntime.perform(run, send: send, origin: origin)
        }
        self.taskDidFinish(token)
      }
    }
  }

  /// Creates a task with `makeTask` and registers it, under the lock, before it can finish;
  /// cancels it at once when its group has been cancelled.
  func spawn(
    keys: SmallArray<CancellationKey>,
    origin: some Sendable,
    group: EffectGroup?,
    makeTask: (_ token: Int) -> Task<Void, any Error>
  ) -> Task<Void, any Error> {
    let origin: (any Sendable)? = recordsOrigins ? origin : nil
    let (task, isInCancelledGroup) = changeRegistry { registry in
      let token = registry.running.nextToken
      let task = makeTask(token)
      let (groupToken, isTracked) = group?.add(task) ?? (nil, true)
      registry.register(
        task,
        token: token,
        keys: Self.expand(keys),
        origin: origin,
        group: group,
        groupToken: groupToken,
        isTracked: isTracked
      )
      return (task, group != nil && groupToken == nil)
    }
    if isInCancelledGroup { task.cancel() }
    return task
  }

  /// The keys a task is registered under: a user's identifier at its feature's path and at the
  /// path of every feature above it, so that cancelling in a feature reaches the features below
  /// it with one lookup; a navigated child's key as it is.
  private static func expand(_ keys: SmallArray<CancellationKey>) -> SmallArray<CancellationKey> {
    guard keys.contains(where: isExpanded) else { return keys }
    var expanded: [CancellationKey] = []
    keys.visit { key in
      guard isExpanded(key) else {
        expanded.append(key)
        return
      }
      for path in key.path.featurePaths {
        expanded.append(CancellationKey(id: key.id, path: path))
      }
    }
    return SmallArray(expanded)
  }

  private static func isExpanded(_ key: CancellationKey) -> Bool {
    !key.isNavigation && !key.path.isRoot
  }

  /// Runs an effect's work, and reports what it throws but its cancellation; always inlined.
  @inline(__always)
  static func perform<Action>(
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

  /// Runs an effect's work with the dependencies and the context of its run bound, as `binding`
  /// says. Never inlined (see `startTask(running:binding:send:origin:keys:group:)`).
  @inline(never)
  static func perform<Action>(
    _ run: Effect<Action>.RunBox,
    binding: (dependencies: Bool, context: Bool),
    send: Send<Action>,
    origin: Action
  ) async {
    switch binding {
    case (true, true):
      await DependencyValues.$_current.withValue(run.dependencies) {
        await ReducerContext.$inTask.withValue(run.context) {
          await perform(run, send: send, origin: origin)
        }
      }
    case (true, false):
      await DependencyValues.$_current.withValue(run.dependencies) {
        await perform(run, send: send, origin: origin)
      }
    case (false, _):
      await ReducerContext.$inTask.withValue(run.context) {
        await perform(run, send: send, origin: origin)
      }
    }
  }

  /// Reports an error a run's work threw, unless it is the work's cancellation.
  @inline(never)
  static func reportUnlessCancellation<Action>(
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

  /// Unregisters a task whose work is over; the task calls it last, with its token.
  @inline(never)
  func taskDidFinish(_ token: Int) {
    let finished = changeRegistry { $0.unregister(token) }
    if let (group, groupToken) = finished {
      group.taskDidFinish(groupToken, wasCancelled: Task.isCancelled)
    }
    onFinish?()
  }
}
