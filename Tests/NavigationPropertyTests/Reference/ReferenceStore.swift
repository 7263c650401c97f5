import Composable
import Dependencies
import IssueReporting
import Synchronization

/// A plain store that runs the reference operators (`referenceForEach`, `referenceIfLet`): the
/// model the core's `Store` is checked against.
///
/// Everything the core does fast it does the obvious way: a reducer's context is a task-local
/// bound around it, as the Composable Architecture binds its dependencies; every effect is
/// walked by recursion; every run is a task on the main actor, registered under every key
/// around it; cancelling a key looks at every running task.
@MainActor
final class ReferenceStore<State, Action: Sendable> {
  private(set) var state: State
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  /// The store's running effects.
  let effects = ReferenceEffects()
  private var queue: [Action] = []
  private var isSending = false

  init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in }
  ) {
    (state, self.reducer, dependencies) = DependencyValues.forNewStore(
      initialState: initialState,
      reducer: reducer,
      prepare: prepare
    )
  }

  /// A new ID for an element a view layer pushes.
  func makeStackElementID() -> StackElementID {
    dependencies.stackElementID()
  }

  /// Reduces the action, and every action its effects send synchronously, in order.
  func send(_ action: Action) {
    queue.append(action)
    guard !isSending else { return }
    isSending = true
    defer { isSending = false }
    while !queue.isEmpty {
      let action = queue.removeFirst()
      let effect = ReferenceEffects.$current.withValue(effects) {
        DependencyValues.$_current.withValue(dependencies) {
          ReducerContext.$inTask.withValue(ReducerContext(runtime: nil)) {
            reducer.reduce(into: &state, action: action)
          }
        }
      }
      start(effect, keys: [])
    }
  }

  /// Starts an effect under `keys`, and returns the tasks it started.
  @discardableResult
  private func start(_ effect: Effect<Action>, keys: [CancellationKey]) -> [Task<Void, Never>] {
    switch effect.operation {
    case nil:
      return []
    case .send(let box):
      send(box.action)
      return []
    case .run(let run):
      return [spawn(under: keys, environment: run.environment) { send in try await run.body(send) }]
    case .merge(let merge):
      return merge.parts.flatMap { start(Effect(box: $0), keys: keys) }
    case .concatenate(let concatenation):
      let parts = concatenation.parts
      return [
        spawn(under: keys, environment: nil) { [weak self] _ in
          for part in parts where !Task.isCancelled {
            for task in self?.start(Effect(box: part), keys: keys) ?? [] { await task.value }
          }
        }
      ]
    case .cancellable(let cancellable):
      if cancellable.cancelInFlight { effects.cancel(cancellable.key) }
      return start(cancellable.effect, keys: keys + [cancellable.key])
    case .cancel(let cancel):
      effects.cancel(cancel.key)
      return []
    case .reconcile:
      preconditionFailure("Only the core's operators reconcile.")
    }
  }

  /// Starts `work` in a task on the main actor, with the dependencies and the context of the
  /// effect's environment when it has one, registered under `keys` until it finishes.
  private func spawn(
    under keys: [CancellationKey],
    environment: EffectEnvironment?,
    _ work: @escaping @MainActor (Send<Action>) async throws -> Void
  ) -> Task<Void, Never> {
    let send = Send<Action> { [weak self] in self?.send($0) }
    let token = effects.nextToken
    let task = Task { [effects] in
      do {
        if let environment {
          try await DependencyValues.$_current.withValue(environment.dependencies) {
            try await ReducerContext.$inTask.withValue(environment.context) {
              try await work(send)
            }
          }
        } else {
          try await work(send)
        }
      } catch is CancellationError {
      } catch {
        reportIssue(error)
      }
      effects.finish(token)
    }
    effects.register(task, token: token, under: keys)
    return task
  }
}

/// The running tasks of a reference store, each under every key around it: a user's
/// identifier at its path and at every path above it, so that cancelling an identifier in a
/// feature reaches the same identifier in the features below it.
final class ReferenceEffects: Sendable {
  /// The effects of the store whose reducer is running: the reference operators read it, as
  /// the Composable Architecture's read its global cancellation table.
  @TaskLocal static var current: ReferenceEffects?

  private struct Tables {
    var running: [Int: Task<Void, Never>] = [:]
    var keysOfTask: [Int: [CancellationKey]] = [:]
    var nextToken = 0
  }

  private let tables = Mutex(Tables())

  /// The number of tasks that have not finished.
  var runningCount: Int { tables.withLock { $0.running.count } }

  /// The token the next registered task gets.
  var nextToken: Int { tables.withLock { $0.nextToken } }

  func register(_ task: Task<Void, Never>, token: Int, under keys: [CancellationKey]) {
    let expanded = keys.flatMap { key in
      key.path.prefixes.map { CancellationKey(id: key.id, path: $0) }
    }
    tables.withLock { tables in
      tables.running[token] = task
      tables.keysOfTask[token] = expanded
      tables.nextToken += 1
    }
  }

  func finish(_ token: Int) {
    tables.withLock { tables in
      tables.running[token] = nil
      tables.keysOfTask[token] = nil
    }
  }

  /// Cancels every task under `key`, and takes it out of every key.
  func cancel(_ key: CancellationKey) {
    let cancelled = tables.withLock { tables in
      var cancelled: [Task<Void, Never>] = []
      for (token, keys) in tables.keysOfTask where keys.contains(key) {
        cancelled += tables.running[token].map { [$0] } ?? []
        tables.keysOfTask[token] = []
      }
      return cancelled
    }
    for task in cancelled { task.cancel() }
  }

  /// The identifiers of type `ID` with running work at `path`.
  func identifiers<ID: Hashable & Sendable>(_: ID.Type, at path: NavigationIDPath) -> Set<ID> {
    tables.withLock { tables in
      var found: Set<ID> = []
      for keys in tables.keysOfTask.values {
        for key in keys where key.path == path {
          if let id = key.id.value(as: ID.self) { found.insert(id) }
        }
      }
      return found
    }
  }
}
