import Testing

@testable import Composable

@MainActor
struct EffectRuntimeTests {
  let slot = NavigationIDPath().appending(identity: HashableIdentity("stack"))

  /// Starts a run that waits until it is cancelled, under `keys`.
  func startWaiting(in runtime: EffectRuntime, under keys: [CancellationKey]) -> EffectTask {
    var prefixes = EffectRuntime.PrefixCache()
    let run = Effect<Int>.RunBox(
      priority: nil,
      environment: EffectEnvironment.current(),
      body: { _ in await waitUntilCancelled() },
      location: CodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    )
    return runtime.startTask(
      running: run,
      binding: nil,
      send: Send { _ in },
      origin: 0,
      keys: SmallArray(keys),
      prefixes: &prefixes,
      group: EffectGroup()
    )
  }

  @Test func reconcilingCancelsTheWorkOfTheChildrenRejected() async {
    let runtime = EffectRuntime()
    let (kept, gone) = (HashableIdentity(1), HashableIdentity(2))
    let keptTask = startWaiting(in: runtime, under: [.navigation(slot: slot, child: kept)])
    let goneTask = startWaiting(in: runtime, under: [.navigation(slot: slot, child: gone)])
    #expect(runtime.hasNavigatedEffects)

    #expect(runtime.reconcile(Reconciliation(slot: slot) { $0 == kept }) == [gone])
    _ = await goneTask.result
    #expect(goneTask.isCancelled)
    #expect(!keptTask.isCancelled)

    runtime.cancelAll()
    await runtime.waitForRunningTasks()
    #expect(runtime.runningCount == 0)
    #expect(!runtime.hasNavigatedEffects)
  }

  @Test func aUsersIdentifierIsRegisteredAtItsPathAndEveryPathAbove() async {
    let runtime = EffectRuntime()
    let deep = slot.appending(identity: HashableIdentity(1))
    _ = startWaiting(in: runtime, under: [CancellationKey(id: "timer", path: deep)])
    #expect(runtime.cancellationKeyCount == 3)

    var cancelled: [EffectTask] = []
    runtime.unregisterTasks(
      under: CancellationKey(id: "timer", path: NavigationIDPath()), into: &cancelled)
    #expect(cancelled.count == 1)
    #expect(runtime.cancellationKeyCount == 0)
    for task in cancelled { task.cancel() }
    await runtime.waitForRunningTasks()
    #expect(runtime.runningCount == 0)
  }
}

/// The registry's invariants: a task is under exactly the keys its entry lists, a key is kept
/// only while it has a task, and a child is live only while its key has one.
struct EffectRegistryTests {
  let outer = CancellationKey(id: "outer", path: NavigationIDPath())
  let inner = CancellationKey(id: "inner", path: NavigationIDPath())
  let slot = NavigationIDPath().appending(identity: HashableIdentity("sheet"))

  func register(
    _ keys: [CancellationKey],
    in registry: inout EffectRegistry
  ) -> EffectRuntime.Token {
    let token = registry.running.nextToken
    registry.register(
      Task {},
      token: token,
      keys: SmallArray(keys),
      origin: nil,
      group: nil,
      groupToken: nil,
      isTracked: true
    )
    return token
  }

  @Test func aFinishedTaskLeavesNothingBehind() {
    var registry = EffectRegistry()
    let child = CancellationKey.navigation(slot: slot, child: HashableIdentity(1))
    let token = register([outer, child], in: &registry)
    #expect(registry.tokensByKey.count == 2)
    #expect(registry.liveChildren[slot]?.children.contains(HashableIdentity(1)) == true)

    _ = registry.unregister(token)
    #expect(registry.running.count == 0)
    #expect(registry.tokensByKey.isEmpty)
    #expect(registry.liveChildren.isEmpty)
  }

  @Test func cancellingOneKeyTakesItsTasksOutOfEveryOtherKey() {
    var registry = EffectRegistry()
    _ = register([outer, inner], in: &registry)
    let other = register([outer], in: &registry)

    var cancelled: [EffectTask] = []
    registry.unregisterTasks(under: inner, into: &cancelled)
    #expect(cancelled.count == 1)
    var outerTokens: [EffectRuntime.Token] = []
    registry.tokensByKey[outer]?.visit { outerTokens.append($0) }
    #expect(outerTokens == [other])
    #expect(registry.tokensByKey[inner] == nil)
    // A cancelled task stays listed as running until it finishes.
    #expect(registry.running.count == 2)
  }

  @Test func unregisteringEverythingEmptiesTheTables() {
    var registry = EffectRegistry()
    _ = register([outer], in: &registry)
    _ = register([.navigation(slot: slot, child: HashableIdentity(2))], in: &registry)
    #expect(registry.unregisterAll().count == 2)
    #expect(registry.tokensByKey.isEmpty)
    #expect(registry.liveChildren.isEmpty)
  }
}
