import Composable
import ConcurrencyExtras
import Dependencies
import IssueReporting
import Synchronization

/// A plain store that runs the reference operators (`referenceForEach`, `referenceIfLet`): the
/// model the core's `Store` is checked against.
///
/// Everything the core does fast it does the obvious way: every effect is taken apart
/// (`Effect.parts`) and walked by recursion; every run is a task on the main actor, registered
/// under every key around it; cancelling a key looks at every running task.
@MainActor
final class ReferenceStore<State, Action: Sendable> {
  private(set) var state: State
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  /// The store's running effects.
  let effects = ReferenceEffects()
  private var queue: [Action] = []
  private var isSending = false

  /// Creates a store as the core's does: the dependencies have a stack element ID generator that
  /// counts from 0, then `prepare`'s overrides, and the state and the reducer are built with
  /// them.
  init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in }
  ) {
    let dependencies = withDependencies {
      $0.stackElementID = .incrementing()
      prepare(&$0)
    } operation: {
      DependencyValues._current
    }
    (state, self.reducer) = withDependencies {
      $0 = dependencies
    } operation: {
      (initialState(), reducer())
    }
    self.dependencies = dependencies
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
        withDependencies {
          $0 = dependencies
        } operation: {
          NavigationContext.atRoot {
            reducer.reduce(into: &state, action: action)
          }
        }
      }
      start(effect, keys: [])
    }
  }

  /// Starts an effect under `keys`, and returns the tasks it started.
  @discardableResult
  private func start(_ effect: Effect<Action>, keys: [ReferenceKey]) -> [Task<Void, Never>] {
    switch effect.parts {
    case nil:
      return []
    case .send(let action):
      send(action)
      return []
    case .run(let work):
      return [spawn(under: keys, work)]
    case .merge(let effects):
      return effects.flatMap { start($0, keys: keys) }
    case .concatenate(let effects):
      return [
        spawn(under: keys) { @MainActor [weak self] _ in
          for effect in effects where !Task.isCancelled {
            for task in self?.start(effect, keys: keys) ?? [] { await task.value }
          }
        }
      ]
    case .cancellable(let key, let cancelInFlight, let effect):
      let key = ReferenceKey(id: key.id, path: key.path)
      if cancelInFlight { effects.cancel(key) }
      return start(effect, keys: keys + [key])
    }
  }

  /// Starts `work` in a task on the main actor, registered under `keys` until it finishes.
  private func spawn(
    under keys: [ReferenceKey],
    _ work: @escaping @Sendable (Send<Action>) async throws -> Void
  ) -> Task<Void, Never> {
    let send = Send<Action> { [weak self] in self?.send($0) }
    let token = effects.nextToken
    let task = Task { [effects] in
      do {
        try await work(send)
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

/// A cancellation key: an identifier, at the navigation path of the feature that made it.
struct ReferenceKey: Hashable, Sendable {
  let id: AnyHashableSendable
  let path: [AnyHashableSendable]

  init(id: AnyHashableSendable, path: [AnyHashableSendable]) {
    self.id = id
    self.path = path
  }

  init(id: some Hashable & Sendable, path: [AnyHashableSendable]) {
    self.init(id: AnyHashableSendable(id), path: path)
  }

  /// This key at its path and at every path above it: a task is registered under all of them,
  /// so that cancelling an identifier in a feature reaches the same identifier below it.
  var andEveryKeyAbove: [ReferenceKey] {
    (0...path.count).map { ReferenceKey(id: id, path: Array(path.prefix($0))) }
  }
}

/// The running tasks of a reference store, each under every key around it and every key above
/// those.
final class ReferenceEffects: Sendable {
  /// The effects of the store whose reducer is running: the reference operators read it, as
  /// the Composable Architecture's read its global cancellation table.
  @TaskLocal static var current: ReferenceEffects?

  private struct Tables {
    var running: [Int: Task<Void, Never>] = [:]
    var keysOfTask: [Int: [ReferenceKey]] = [:]
    var nextToken = 0
  }

  private let tables = Mutex(Tables())

  /// The number of tasks that have not finished.
  var runningCount: Int { tables.withLock { $0.running.count } }

  /// The token the next registered task gets.
  var nextToken: Int { tables.withLock { $0.nextToken } }

  func register(_ task: Task<Void, Never>, token: Int, under keys: [ReferenceKey]) {
    let expanded = keys.flatMap(\.andEveryKeyAbove)
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
  func cancel(_ key: ReferenceKey) {
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

  /// The children of reference operators at `path` whose identifier has running work.
  func children<Child>(
    _: ReferenceChild<Child>.Type,
    at path: [AnyHashableSendable]
  ) -> Set<ReferenceChild<Child>> {
    tables.withLock { tables in
      var found: Set<ReferenceChild<Child>> = []
      for keys in tables.keysOfTask.values {
        for key in keys where key.path == path {
          if let child = key.id.base as? ReferenceChild<Child> { found.insert(child) }
        }
      }
      return found
    }
  }
}
