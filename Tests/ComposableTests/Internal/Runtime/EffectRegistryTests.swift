import Testing

@testable import Composable

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
