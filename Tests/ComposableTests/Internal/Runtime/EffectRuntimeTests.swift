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
