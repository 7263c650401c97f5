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
      dependencies: dependencies,
      group: group,
      makeSend: makeSend
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
    // already without them.
    for task in walk.cancelled { task.cancel() }
  }
}

/// One walk over an effect tree: what it sends synchronously, starts and cancels.
struct EffectWalk<Action: Sendable> {
  let runtime: EffectRuntime
  let origin: Action
  /// The dependencies bound where the walk creates its tasks, which they inherit.
  let dependencies: DependencyValues
  /// Whether the walk's tasks inherit the root context; read when the first root run starts.
  private var inheritsRootContext: Bool?
  /// The group the tasks join, made with the first task unless given.
  private(set) var group: EffectGroup?
  /// The ``Send`` the tasks' actions go through, made with the group unless given.
  private var send: Send<Action>?
  private let makeSend: (EffectGroup) -> Send<Action>
  private(set) var actions: [Action] = []
  /// The tasks started, when the walk runs inside a task that waits for them; `nil` otherwise.
  var tasks: [Task<Void, any Error>]?
  private(set) var cancelled: [Task<Void, any Error>] = []

  init(
    runtime: EffectRuntime,
    origin: Action,
    dependencies: DependencyValues,
    group: EffectGroup?,
    send: Send<Action>? = nil,
    makeSend: @escaping (EffectGroup) -> Send<Action>
  ) {
    self.runtime = runtime
    self.origin = origin
    self.dependencies = dependencies
    self.group = group
    self.send = send
    self.makeSend = makeSend
  }

  /// The group new tasks join and the ``Send`` their actions go through.
  mutating func groupAndSend() -> (EffectGroup, Send<Action>) {
    if let group, let send { return (group, send) }
    let group = self.group ?? EffectGroup()
    let send = makeSend(group)
    (self.group, self.send) = (group, send)
    return (group, send)
  }

  /// Starts the parts of `effect`, depth first and in order, under `keys`.
  mutating func start(_ effect: Effect<Action>, keys: SmallArray<CancellationKey>) {
    switch effect.operation {
    case nil:
      return
    case .send(let send):
      actions.append(send.action)
    case .run(let run):
      startRun(run, keys: keys)
    case .merge(let merge):
      for part in merge.parts {
        start(Effect(box: part), keys: keys)
      }
    case .concatenate(let concatenation):
      startConcatenation(concatenation.parts, keys: keys)
    case .cancellable(let cancellable):
      if cancellable.cancelInFlight {
        runtime.unregisterTasks(under: cancellable.key, into: &cancelled)
      }
      guard !cancellable.effect.isNone else { return }
      var keys = keys
      keys.append(cancellable.key)
      start(cancellable.effect, keys: keys)
    }
  }

  /// Starts a run's work in a task of the group, registered under `keys`.
  private mutating func startRun(_ run: Effect<Action>.RunBox, keys: SmallArray<CancellationKey>) {
    let (group, send) = groupAndSend()
    let task = runtime.startTask(
      running: run,
      binding: binding(for: run),
      send: send,
      origin: origin,
      keys: keys,
      group: group
    )
    tasks?.append(task)
  }
}

extension EffectWalk {
  /// What the task of `run` binds: the run's dependencies unless they are those the walk's
  /// tasks inherit, and its context unless it is the root context and they inherit that. Most
  /// runs come from a store's root feature and bind nothing. Guarded by `StoreTests`
  /// (dependencies reach every run), `DismissEffectTests` (a run's context is its feature's)
  /// and `EffectWalkTests`.
  @inline(__always)
  mutating func binding(for run: Effect<Action>.RunBox) -> (dependencies: Bool, context: Bool) {
    let bindsContext: Bool
    if run.context.isRoot {
      if inheritsRootContext == nil {
        inheritsRootContext = ReducerContext.inTask.isRoot
      }
      bindsContext = inheritsRootContext == false
    } else {
      bindsContext = true
    }
    return (!run.dependencies.isIdentical(to: dependencies), bindsContext)
  }
}

extension Effect {
  /// Whether starting the effect does all of its work immediately, without a task.
  var isSynchronous: Bool {
    switch operation {
    case nil, .send:
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
