import Dependencies

// A task's life: started (`startTask`), registered before it can run (`spawn`), bound to what
// its effect needs (`TaskBinding`), running the work (`perform`), unregistered (`taskDidFinish`).

/// The task that runs an effect's work, or the rest of a concatenation.
///
/// Invariant: a task whose run binds nothing holds, besides the work's frames, only its
/// closure's frame (in ``EffectRuntime/startTask(running:binding:send:origin:keys:prefixes:group:)``),
/// so that it fits the first block its allocator hands out. So the type throws although its
/// operation never does (a non-throwing one is entered through a reabstraction thunk), `perform`
/// is inlined into the closure, and what it calls (`reportUnlessCancellation`, `taskDidFinish`,
/// `TaskBinding.execute`) never is. Guarded by `Benchmarks/instruction-counts` (start + cancel,
/// pop with effects).
typealias EffectTask = Task<Void, any Error>

extension EffectRuntime {
  /// Starts the task of `run` in `group`, registered under `keys`: it binds what `binding` says,
  /// runs the work and unregisters itself.
  func startTask<Action>(
    running run: Effect<Action>.RunBox,
    binding: TaskBinding?,
    send: Send<Action>,
    origin: Action,
    keys: SmallArray<CancellationKey>,
    prefixes: inout PrefixCache,
    group: EffectGroup
  ) -> EffectTask {
    let priority = run.priority
    return spawn(keys: keys, prefixes: &prefixes, origin: origin, group: group) { token in
      // NB: The closure keeps the box, one reference, not its fields, to stay in the task's first
      // block (see `EffectTask`; `Benchmarks/instruction-counts`, start + cancel).
      Task(priority: priority) {
        if let binding {
          await binding.execute(run, send: send, origin: origin)
        } else {
          await EffectRuntime.perform(run, send: send, origin: origin)
        }
        self.taskDidFinish(token)
      }
    }
  }

  /// Starts a task in `group`, under `keys`, that runs `parts` (the rest of a concatenation) in
  /// turn, each to its end.
  func startTask<Action>(
    runningInTurn parts: [EffectBox],
    send: Send<Action>,
    origin: Action,
    keys: SmallArray<CancellationKey>,
    prefixes: inout PrefixCache,
    group: EffectGroup
  ) -> EffectTask {
    spawn(keys: keys, prefixes: &prefixes, origin: origin, group: group) { token in
      Task {
        for part in parts where !Task.isCancelled {
          await self.run(Effect(box: part), keys: keys, origin: origin, group: group, send: send)
        }
        self.taskDidFinish(token)
      }
    }
  }

  /// Creates a task with `makeTask` and registers it, under the lock, before it can finish;
  /// cancels it at once when its group has been cancelled.
  private func spawn(
    keys: SmallArray<CancellationKey>,
    prefixes: inout PrefixCache,
    origin: some Sendable,
    group: EffectGroup?,
    makeTask: (_ token: Token) -> EffectTask
  ) -> EffectTask {
    let origin = recordsOrigins ? EffectRegistry.Origin(origin) : nil
    let (task, isInCancelledGroup) = changeRegistry { registry in
      let token = registry.running.nextToken
      let task = makeTask(token)
      let (groupToken, isTracked) = group?.add(task) ?? (nil, true)
      registry.register(
        task,
        token: token,
        keys: Self.expand(keys, prefixes: &prefixes),
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

  /// The keys a task is registered under: a user's identifier at its path and at every path
  /// above it, so that cancelling in a feature reaches the features below it with one lookup;
  /// a navigated child's key as it is.
  private static func expand(
    _ keys: SmallArray<CancellationKey>,
    prefixes cache: inout PrefixCache
  ) -> SmallArray<CancellationKey> {
    guard keys.contains(where: isExpanded) else { return keys }
    var count = 0
    keys.visit { key in
      count += Self.isExpanded(key) ? key.path.components.count + 1 : 1
    }
    var expanded: [CancellationKey] = []
    expanded.reserveCapacity(count)
    keys.visit { key in
      guard Self.isExpanded(key) else {
        expanded.append(key)
        return
      }
      for path in cache.prefixes(of: key.path) {
        expanded.append(CancellationKey(id: key.id, path: path))
      }
    }
    return SmallArray(expanded)
  }

  private static func isExpanded(_ key: CancellationKey) -> Bool {
    !key.isNavigation && !key.path.isRoot
  }

  /// The paths above a key's path, kept for the last path asked about: one action's effects
  /// mostly share it.
  struct PrefixCache {
    private var last: (path: NavigationIDPath, prefixes: [NavigationIDPath])?

    mutating func prefixes(of path: NavigationIDPath) -> [NavigationIDPath] {
      if let last, last.path == path { return last.prefixes }
      let prefixes = path.prefixes
      last = (path, prefixes)
      return prefixes
    }
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
  func taskDidFinish(_ token: Token) {
    let finished = changeRegistry { $0.unregister(token) }
    if let (group, groupToken) = finished {
      group.taskDidFinish(groupToken, wasCancelled: Task.isCancelled)
    }
    onFinish?()
  }
}

// MARK: - What a task binds

/// What the tasks of one walk inherit (the store's dependencies, and the task context of the code
/// that starts the walk), and so what each binds: most runs come from a store's root feature and
/// bind nothing. Guarded by `StoreTests` (dependencies reach every run), `DismissEffectTests`
/// (a run's context is its feature's) and `EffectTaskTests`.
struct TaskInheritance {
  /// The dependencies bound where the walk creates its tasks.
  let dependencies: DependencyValues
  /// Whether the walk's tasks inherit the root context; read when the first root run starts.
  private var inheritsRootContext: Bool?

  init(dependencies: DependencyValues) {
    self.dependencies = dependencies
  }

  /// What the task of a run made in `environment` binds; `nil` when it binds nothing.
  @inline(__always)
  mutating func binding(for environment: EffectEnvironment) -> TaskBinding? {
    let inheritsDependencies = DependencyIdentity.areIdentical(
      environment.dependencies,
      dependencies
    )
    let inheritsContext: Bool
    if environment.context.isRoot {
      if inheritsRootContext == nil {
        inheritsRootContext = ReducerContext.inTask.isRoot
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
}

/// The task-locals a run's task binds around its work: those of the run's environment that
/// differ from what the task inherited.
enum TaskBinding {
  case context
  case dependencies
  case dependenciesAndContext

  /// Runs the work of `run` with what this binds. Never inlined (see ``EffectTask``).
  @inline(never)
  func execute<Action>(_ run: Effect<Action>.RunBox, send: Send<Action>, origin: Action) async {
    let environment = run.environment
    switch self {
    case .context:
      await ReducerContext.$inTask.withValue(environment.context) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependencies:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await EffectRuntime.perform(run, send: send, origin: origin)
      }
    case .dependenciesAndContext:
      await DependencyValues.$_current.withValue(environment.dependencies) {
        await ReducerContext.$inTask.withValue(environment.context) {
          await EffectRuntime.perform(run, send: send, origin: origin)
        }
      }
    }
  }
}
