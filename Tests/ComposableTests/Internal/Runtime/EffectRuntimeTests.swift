import Dependencies
import Testing

@testable import Composable

@MainActor
struct EffectRuntimeTests {
  let slot = NavigationIDPath().appending(identity: HashableIdentity("stack"))

  /// Starts a run that waits until it is cancelled, under `keys`.
  func startWaiting(in runtime: EffectRuntime, under keys: [CancellationKey]) -> Task<
    Void, any Error
  > {
    let run = Effect<Int>.RunBox(
      priority: nil,
      dependencies: DependencyValues._current,
      context: ReducerContext(runtime: nil),
      body: { _ in await waitUntilCancelled() },
      location: CodeLocation(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    )
    return runtime.startTask(
      running: run,
      binding: (false, false),
      send: Send { _ in },
      origin: 0,
      keys: SmallArray(keys),
      group: EffectGroup()
    )
  }

  @Test func reconcilingCancelsTheWorkOfTheChildrenRejected() async {
    let runtime = EffectRuntime()
    let (kept, gone) = (HashableIdentity(1), HashableIdentity(2))
    let keptTask = startWaiting(in: runtime, under: [.navigation(slot: slot, child: kept)])
    let goneTask = startWaiting(in: runtime, under: [.navigation(slot: slot, child: gone)])
    #expect(runtime.hasNavigatedEffects)

    #expect(runtime.reconcile(slot, stack: nil) { $0 == kept } == [gone])
    _ = await goneTask.result
    #expect(goneTask.isCancelled)
    #expect(!keptTask.isCancelled)

    runtime.cancelAll()
    await runtime.waitForRunningTasks()
    #expect(runtime.runningCount == 0)
    #expect(!runtime.hasNavigatedEffects)
  }

  @Test func aUsersIdentifierIsRegisteredAtItsPathAndEveryFeaturePathAbove() async {
    let runtime = EffectRuntime()
    let deep = slot.appending(identity: HashableIdentity(1))
    _ = startWaiting(in: runtime, under: [CancellationKey(id: "timer", path: deep)])
    // At the feature's path and the root's; never at the slot's, where only children's keys
    // are.
    #expect(runtime.cancellationKeyCount == 2)

    var cancelled: [Task<Void, any Error>] = []
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
  ) -> Int {
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

    var cancelled: [Task<Void, any Error>] = []
    registry.unregisterTasks(under: inner, into: &cancelled)
    #expect(cancelled.count == 1)
    var outerTokens: [Int] = []
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

/// How the registry finds a slot's children that have left the state: by the removals a stack
/// lists since the version it last reconciled the slot at, or by looking at every live child.
struct ReconciliationTests {
  let slot = NavigationIDPath().appending(identity: HashableIdentity("stack"))

  /// A registry with running work under each of `ids`' keys in `slot`.
  func registry(working ids: [Int]) -> EffectRegistry {
    var registry = EffectRegistry()
    for id in ids {
      let key = CancellationKey.navigation(
        slot: slot,
        child: HashableIdentity(StackElementID(integerLiteral: id))
      )
      registry.register(
        Task {},
        token: registry.running.nextToken,
        keys: SmallArray([key]),
        origin: nil,
        group: nil,
        groupToken: nil,
        isTracked: true
      )
    }
    return registry
  }

  func keeping(_ ids: Set<Int>) -> (HashableIdentity) -> Bool {
    { ids.contains($0.value(as: StackElementID.self)!.rawValue) }
  }

  func stack(_ count: Int) -> StackState<Int> {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      StackState(0..<count)
    }
  }

  @Test func withoutAStackEveryLiveChildIsChecked() {
    var registry = registry(working: [0, 1, 2])
    let (tasks, gone) = registry.reconcile(slot, stack: nil, keeping: keeping([0, 2]))
    #expect(gone == [HashableIdentity(StackElementID(integerLiteral: 1))])
    #expect(tasks.count == 1)
    #expect(registry.examinedEntryCount == 1 + 3 + 2)
    #expect(registry.liveChildren[slot]?.children.contains(gone[0]) == false)
  }

  @Test func atTheVersionLastReconciledNothingIsExamined() {
    var stack = stack(3)
    var registry = registry(working: [0, 1, 2])
    _ = registry.reconcile(slot, stack: stack.takeLog(), keeping: keeping([0, 1, 2]))
    let before = registry.examinedEntryCount
    let (tasks, gone) = registry.reconcile(slot, stack: stack.takeLog(), keeping: keeping([]))
    #expect(tasks.isEmpty && gone.isEmpty)
    #expect(registry.examinedEntryCount == before + 1)
  }

  @Test func afterAPopOnlyTheRemovedChildrenAreExamined() {
    var stack = stack(3)
    var registry = registry(working: [0, 1, 2])
    _ = registry.reconcile(slot, stack: stack.takeLog(), keeping: keeping([0, 1, 2]))
    stack.removeLast()
    let before = registry.examinedEntryCount
    let (_, gone) = registry.reconcile(slot, stack: stack.takeLog(), keeping: keeping([0, 1]))
    #expect(gone == [HashableIdentity(StackElementID(integerLiteral: 2))])
    // The reconciliation, the one listed removal, and the one task under it.
    #expect(registry.examinedEntryCount == before + 1 + 1 + 2)
  }

  @Test func aStackWhoseListStartsElsewhereHasEveryLiveChildChecked() {
    var stack = stack(3)
    var registry = registry(working: [0, 1, 2])
    _ = registry.reconcile(slot, stack: stack.takeLog(), keeping: keeping([0, 1, 2]))
    var replacement = self.stack(1)
    let before = registry.examinedEntryCount
    let (_, gone) = registry.reconcile(
      slot, stack: replacement.takeLog(), keeping: keeping([0]))
    #expect(Set(gone) == Set([1, 2].map { HashableIdentity(StackElementID(integerLiteral: $0)) }))
    #expect(registry.examinedEntryCount >= before + 1 + 3)
  }
}
