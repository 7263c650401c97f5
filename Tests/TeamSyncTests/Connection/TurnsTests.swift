import Testing

@testable import TeamSync

/// The turns a shared connection's engines take (`Turns`), without a server.
@Suite(.timeLimit(.minutes(1)))
struct TurnsTests {
  /// An engine stopped while it waits behind a holder that never ends (a statement the server
  /// never answers) leaves the line at once; the others keep their places and take their turns
  /// in the order they came.
  @Test func aWaiterWhoseTaskIsCancelledLeavesTheLineAndTheOthersKeepTheirOrder() async throws {
    let turns = Turns()
    try await turns.take()
    let (held, hold) = AsyncStream.makeStream(of: String.self)
    let waiter = { @Sendable (name: String) in
      Task {
        try await turns.take()
        hold.yield(name)
        turns.give()
      }
    }
    let first = waiter("first")
    while turns.waitingCount < 1 { await Task.yield() }
    let stopped = waiter("stopped")
    while turns.waitingCount < 2 { await Task.yield() }
    let last = waiter("last")
    while turns.waitingCount < 3 { await Task.yield() }

    stopped.cancel()
    await #expect(throws: CancellationError.self) { try await stopped.value }
    #expect(turns.waitingCount == 2)
    turns.give()
    try await first.value
    try await last.value
    hold.finish()
    #expect(await held.reduce(into: []) { $0.append($1) } == ["first", "last"])

    let late = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await turns.take()
    }
    await #expect(throws: CancellationError.self) { try await late.value }
    try await turns.take()
    turns.give()
  }
}
