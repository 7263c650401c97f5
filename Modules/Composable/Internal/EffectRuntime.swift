import Dependencies
import Synchronization

/// Starts, tracks and cancels the effects of one store.
///
/// Every task an effect needs is registered here until it finishes, under the cancellation
/// keys that enclose it. Registration and removal are constant-time dictionary operations, and
/// a finished task leaves nothing behind, so ``runningCount`` is zero whenever nothing runs.
///
/// Each store owns its own runtime: identical cancellation keys in two stores never meet.
package final class EffectRuntime: Sendable {
  private struct Tables {
    var nextToken: UInt64 = 0
    var running: [UInt64: Entry] = [:]
    var tokensByKey: [CancellationKey: SmallSet<UInt64>] = [:]
    /// The navigation paths at which each identifier has running work: what a cancellation
    /// searches to reach descendants, without scanning unrelated keys.
    var pathsByID: [HashableIdentity: SmallSet<NavigationIDPath>] = [:]

    mutating func register(_ token: UInt64, under key: CancellationKey) {
      if tokensByKey[key] == nil {
        tokensByKey[key] = SmallSet(token)
        if pathsByID[key.id] == nil {
          pathsByID[key.id] = SmallSet(key.path)
        } else {
          pathsByID[key.id]?.insert(key.path)
        }
      } else {
        tokensByKey[key]?.insert(token)
      }
    }

    mutating func unregister(_ token: UInt64, from key: CancellationKey) {
      guard tokensByKey[key]?.remove(token) == true, tokensByKey[key]?.isEmpty == true else {
        return
      }
      removeKey(key)
    }

    /// Removes `key` and returns the tasks registered under it.
    @discardableResult
    mutating func removeKey(_ key: CancellationKey) -> [Task<Void, Never>] {
      guard let tokens = tokensByKey.removeValue(forKey: key) else { return [] }
      if pathsByID[key.id]?.remove(key.path) == true, pathsByID[key.id]?.isEmpty == true {
        pathsByID[key.id] = nil
      }
      return tokens.compactMap { running[$0]?.task }
    }

    /// Removes `key` and every key with the same identifier under its path.
    mutating func removeKeys(under key: CancellationKey) -> [Task<Void, Never>] {
      guard let paths = pathsByID[key.id] else { return [] }
      var tasks: [Task<Void, Never>] = []
      for path in paths where path.hasPrefix(key.path) {
        tasks += removeKey(CancellationKey(id: key.id, path: path))
      }
      return tasks
    }
  }

  private struct Entry {
    let task: Task<Void, Never>
    let keys: [CancellationKey]
    let origin: (any Sendable)?
  }

  private let tables = Mutex(Tables())
  private let recordsOrigins: Bool
  private let onFinish: (@Sendable () -> Void)?

  /// Creates a runtime.
  ///
  /// - Parameters:
  ///   - recordsOrigins: Whether to remember the action that started each task, for
  ///     diagnostics such as a test store's "effect still running" failure.
  ///   - onFinish: Called, on the finishing task, each time a task has been unregistered.
  package init(recordsOrigins: Bool = false, onFinish: (@Sendable () -> Void)? = nil) {
    self.recordsOrigins = recordsOrigins
    self.onFinish = onFinish
  }

  /// The number of tasks started by effects that have not finished yet.
  package var runningCount: Int {
    tables.withLock { $0.running.count }
  }

  /// The number of cancellation keys with at least one running task.
  package var cancellationKeyCount: Int {
    tables.withLock { $0.tokensByKey.count }
  }

  /// The actions that started the tasks still running (only when recording origins).
  package var runningOrigins: [any Sendable] {
    tables.withLock { tables in
      tables.running.sorted { $0.key < $1.key }.compactMap { $0.value.origin }
    }
  }

  /// Cancels the running tasks registered under `key`, and under the same identifier in every
  /// navigation scope below the key's: a parent can cancel its children's work by identifier,
  /// while siblings never reach each other's.
  package func cancel(_ key: CancellationKey) {
    // NB: Cancelling runs cancellation handlers synchronously; never do it under the lock.
    for task in detach(key) { task.cancel() }
  }

  /// Removes what `cancel(_:)` would cancel from the tables, and returns its tasks.
  fileprivate func detach(_ key: CancellationKey) -> [Task<Void, Never>] {
    tables.withLock { $0.removeKeys(under: key) }
  }

  /// Removes the navigation scopes directly under `parent` whose last component `keeping`
  /// rejects, with everything below them, and returns their tasks.
  fileprivate func detachScopes(
    under parent: NavigationIDPath,
    keeping: (HashableIdentity) -> Bool
  ) -> [Task<Void, Never>] {
    tables.withLock { tables -> [Task<Void, Never>] in
      guard let scopes = tables.pathsByID[HashableIdentity(NavigationScope())] else {
        return []
      }
      var tasks: [Task<Void, Never>] = []
      for scope in scopes {
        guard
          scope.isChild(of: parent),
          let component = scope.components.last,
          !keeping(component)
        else { continue }
        tasks += tables.removeKeys(under: .navigationScope(scope))
      }
      return tasks
    }
  }

  /// Cancels every running task.
  package func cancelAll() {
    let tasks = tables.withLock { tables in
      tables.tokensByKey.removeAll()
      tables.pathsByID.removeAll()
      return tables.running.values.map(\.task)
    }
    for task in tasks { task.cancel() }
  }

  /// Waits until every task running now has finished.
  package func waitForRunningTasks() async {
    let tasks = tables.withLock { tables in tables.running.values.map(\.task) }
    for task in tasks { await task.value }
  }

  /// Starts `work` in a new task registered under `keys`.
  fileprivate func spawn(
    priority: TaskPriority?,
    keys: [CancellationKey],
    origin: some Sendable,
    work: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let origin: (any Sendable)? = recordsOrigins ? origin : nil
    // NB: The task is created under the lock so that it is registered before it can finish
    // and unregister itself.
    return tables.withLock { tables in
      let token = tables.nextToken
      tables.nextToken += 1
      let task = Task(priority: priority) {
        await work()
        self.finish(token)
      }
      tables.running[token] = Entry(task: task, keys: keys, origin: origin)
      for key in keys {
        tables.register(token, under: key)
      }
      return task
    }
  }

  private func finish(_ token: UInt64) {
    tables.withLock { tables in
      guard let entry = tables.running.removeValue(forKey: token) else { return }
      for key in entry.keys {
        tables.unregister(token, from: key)
      }
    }
    onFinish?()
  }
}

extension EffectRuntime {
  /// Starts an effect returned by a reducer.
  ///
  /// Synchronous parts happen before this returns: actions from ``Effect/send(_:)`` are
  /// appended to `actions` in order, and cancellations take effect. Asynchronous parts start
  /// in new tasks, appended to `tasks`.
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - origin: The action whose reduction returned the effect.
  ///   - send: Delivers actions from asynchronous work back to the store.
  ///   - actions: Receives synchronously sent actions.
  ///   - tasks: Receives the tasks started.
  package func start<Action>(
    _ effect: Effect<Action>,
    origin: Action,
    send: Send<Action>,
    actions: inout [Action],
    tasks: inout [Task<Void, Never>]
  ) {
    var starting = Starting(origin: origin, send: send)
    starting.start(effect, keys: [], in: self)
    actions += starting.actions
    tasks += starting.tasks
    // NB: Cancelled tasks are woken only once the whole effect has been started: the tables
    // already reflect every cancellation, and their finishing work does not compete with the
    // rest of the start for the lock.
    for task in starting.cancelled { task.cancel() }
  }

  /// The synchronous walk over an effect tree that `start` performs.
  private struct Starting<Action: Sendable> {
    let origin: Action
    let send: Send<Action>
    var actions: [Action] = []
    var tasks: [Task<Void, Never>] = []
    var cancelled: [Task<Void, Never>] = []

    init(origin: Action, send: Send<Action>) {
      self.origin = origin
      self.send = send
    }

    mutating func start(
      _ effect: Effect<Action>,
      keys: [CancellationKey],
      in runtime: EffectRuntime
    ) {
      switch effect.operation {
      case .none:
        return
      case .send(let action):
        actions.append(action)
      case .run(let run):
        let (send, origin) = (send, origin)
        tasks.append(
          runtime.spawn(priority: run.priority, keys: keys, origin: origin) {
            await runtime.execute(run, send: send, origin: origin)
          }
        )
      case .merge(let effects):
        for effect in effects {
          start(effect, keys: keys, in: runtime)
        }
      case .concatenate(let effects):
        var remaining = effects[...]
        while let first = remaining.first, first.isSynchronous {
          start(first, keys: keys, in: runtime)
          remaining.removeFirst()
        }
        guard !remaining.isEmpty else { return }
        let rest = Effect<Action>(operation: .concatenate(Array(remaining)))
        let (send, origin) = (send, origin)
        tasks.append(
          runtime.spawn(priority: nil, keys: keys, origin: origin) {
            await runtime.perform(rest, send: send, origin: origin)
          }
        )
      case .cancellable(let key, let cancelInFlight, let effect):
        if cancelInFlight {
          cancelled += runtime.detach(key)
        }
        start(effect, keys: keys + [key], in: runtime)
      case .cancel(let key):
        cancelled += runtime.detach(key)
      case .cancelScopes(let parent, let keeping):
        cancelled += runtime.detachScopes(under: parent, keeping: keeping)
      }
    }
  }

  /// Runs an effect to completion inside a task that is already running.
  fileprivate func perform<Action>(_ effect: Effect<Action>, send: Send<Action>, origin: Action)
    async
  {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      await send(action)
    case .run(let run):
      await execute(run, send: send, origin: origin)
    case .merge(let effects):
      await withTaskGroup(of: Void.self) { group in
        for effect in effects {
          group.addTask { await self.perform(effect, send: send, origin: origin) }
        }
      }
    case .concatenate(let effects):
      for effect in effects {
        guard !Task.isCancelled else { return }
        await perform(effect, send: send, origin: origin)
      }
    case .cancellable(let key, let cancelInFlight, let effect):
      if cancelInFlight {
        cancel(key)
      }
      let task = spawn(priority: nil, keys: [key], origin: origin) {
        await self.perform(effect, send: send, origin: origin)
      }
      await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    case .cancel(let key):
      cancel(key)
    case .cancelScopes(let parent, let keeping):
      for task in detachScopes(under: parent, keeping: keeping) { task.cancel() }
    }
  }

  fileprivate func execute<Action>(
    _ run: Effect<Action>.Run,
    send: Send<Action>,
    origin: Action
  ) async {
    await DependencyValues.$_current.withValue(run.dependencies) {
      do {
        try await run.body(send)
      } catch is CancellationError {
        return
      } catch {
        run.location.reportIssue(
          """
          An "Effect.run" threw an unhandled error:

            \(error)

          The effect was started by this action:

            \(debugCaseOutput(origin))

          Handle the error with the "catch:" parameter of "Effect.run", or inside the \
          operation, so that the feature can tell the user what went wrong.
          """
        )
      }
    }
  }
}

extension Effect {
  /// Whether starting the effect does all of its work immediately, without a task.
  var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel, .cancelScopes:
      return true
    case .run:
      return false
    case .merge(let effects), .concatenate(let effects):
      return effects.allSatisfy(\.isSynchronous)
    case .cancellable(_, _, let effect):
      return effect.isSynchronous
    }
  }
}
