import Testing

@testable import Composable

struct EffectGroupTests {
  @Test func finishWaitsForEveryTaskOfTheGroup() async {
    let group = EffectGroup()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let task: Task<Void, any Error> = Task { for await _ in stream {} }
    let token = group.add(task).token
    let waiter = Task { await group.finish() }
    continuation.finish()
    _ = await task.result
    group.taskDidFinish(token, wasCancelled: false)
    await waiter.value
    #expect(!group.isCancelled)
  }

  @Test func aCancelledGroupCancelsItsTasksAndTurnsAwayNewOnes() async {
    let group = EffectGroup()
    let task: Task<Void, any Error> = Task { await waitUntilCancelled() }
    let token = group.add(task).token
    group.cancel()
    _ = await task.result
    #expect(task.isCancelled)
    group.taskDidFinish(token, wasCancelled: true)
    #expect(group.isCancelled)
    #expect(group.add(Task {}).token == nil)
  }

  @Test func aGroupThatNeverStartedATaskCountsAsCancelled() async {
    let group = EffectGroup()
    #expect(group.isCancelled)
    await group.finish()
  }

  @Test func anUntrackedGroupsTasksAreUntracked() {
    let group = EffectGroup()
    #expect(group.add(Task {}).isTracked)
    group.untrack()
    #expect(!group.add(Task {}).isTracked)
  }
}

/// Waits, without a clock, until the task is cancelled.
func waitUntilCancelled() async {
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  await withTaskCancellationHandler {
    for await _ in stream {}
  } onCancel: {
    continuation.finish()
  }
}
