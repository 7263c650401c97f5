import Dependencies
import Testing

@testable import Composable

@MainActor
struct EffectWalkTests {
  @Test func anEffectIsSynchronousWhenNoPartNeedsATask() {
    let run = Effect<Int>.run { _ in }
    #expect(Effect<Int>.none.isSynchronous)
    #expect(Effect.merge(.send(1), .cancel(id: "a")).isSynchronous)
    #expect(!Effect.merge(.send(1), run).isSynchronous)
    #expect(!Effect.concatenate(.send(1), run.cancellable(id: "a")).isSynchronous)
  }

  @Test func synchronousSendsComeOutInOrderAndStartNoTask() {
    let runtime = EffectRuntime()
    var group: EffectGroup?
    var actions: [Int] = []
    runtime.start(
      .merge(.send(1), .concatenate(.send(2), .send(3)), .send(4).cancellable(id: "a")),
      origin: 0,
      dependencies: DependencyValues._current,
      group: &group,
      makeSend: { _ in Send { _ in } },
      actions: &actions
    )
    #expect(actions == [1, 2, 3, 4])
    #expect(group == nil)
    #expect(runtime.runningCount == 0)
  }

  @Test func aRunStartsATaskInTheGroupMadeForIt() async {
    let runtime = EffectRuntime()
    var group: EffectGroup?
    var actions: [Int] = []
    runtime.start(
      Effect<Int>.run { _ in }.cancellable(id: "a"),
      origin: 0,
      dependencies: DependencyValues._current,
      group: &group,
      makeSend: { _ in Send { _ in } },
      actions: &actions
    )
    #expect(group != nil)
    await group?.finish()
    await runtime.waitForRunningTasks()
    #expect(runtime.runningCount == 0)
    #expect(runtime.cancellationKeyCount == 0)
  }
}
