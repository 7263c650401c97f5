/// Runs `work` in a task of its own and waits for it at most `limit` on the real clock; work that
/// takes longer goes on after. Quitting waits this way for writes another program holds up, so
/// that the user is never kept waiting more than a moment.
///
/// ```swift
/// let isSaved = await waitAtMost(.seconds(2)) { await store.send(.flushPendingWrites).finish() }
/// ```
///
/// - Returns: Whether `work` finished in time.
@MainActor
@discardableResult
func waitAtMost(_ limit: Duration, for work: @escaping @MainActor () async -> Void) async -> Bool {
  let (finished, signal) = AsyncStream<Never>.makeStream()
  Task {
    await work()
    signal.finish()
  }
  return await withTaskGroup(of: Bool.self) { group in
    group.addTask {
      // NB: Unlike awaiting the work's task, iterating a stream ends when this task is
      // cancelled, so the group ends as soon as the clock runs out.
      for await _ in finished {}
      return !Task.isCancelled
    }
    group.addTask {
      do {
        try await ContinuousClock().sleep(for: limit)
        return false
      } catch {
        return true
      }
    }
    let isFinished = await group.next() ?? true
    group.cancelAll()
    return isFinished
  }
}
