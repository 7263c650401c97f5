// The engine of an open app when a connection fails: what it tells, when it stops, how long it
// waits before the next try, and the count of changes waiting it keeps telling meanwhile. Guarded
// by `StatusTests`, `RemovalTests` and `PartitionTests`.

extension TeamSyncEngine {
  /// Tells what `error`, which ended a connection, means, and waits before the next try; returns
  /// whether there is one. A connection ended for a flood is tried again at once; a machine no
  /// longer in the team, or a schema of another release, stops the engine.
  func triesAgain(
    after error: SyncProblem, onStatus: @escaping @Sendable (TeamSyncStatus) -> Void
  ) async -> Bool {
    guard !Task.isCancelled else { return false }
    if isEndingForAFlood || openConnection?.wasEndedForAFlood == true { return true }
    let problem = await leavingIfRemoved(error)
    // NB: Read after the leave, and after any count the watcher told meanwhile: a count read
    // before could be older than the one on the line.
    let waiting = (try? await waitingCount()) ?? 0
    switch problem {
    case .notJoined:
      // NB: The machine left the team here (`team leave` in a shell): nothing to say.
      return false
    case .notAMember, .removed, .schema, .connection:
      tell(.stopped(waiting: waiting, problem: problem), to: onStatus)
      return false
    case .unreachable, .noAnswer, .noFreeConnection, .busy, .failed, .refused, .untrusted,
      .database:
      tell(.offline(waiting: waiting, problem: problem), to: onStatus)
    }
    failures += 1
    let seconds = min(1 << min(failures - 1, 5), Int(Self.longestWait.components.seconds))
    try? await Task.sleep(for: .seconds(seconds))
    return true
  }

  /// While the engine is offline, tells how many changes wait as the user makes more, both
  /// while it waits to try again and while a connection is being tried (a server that does
  /// not answer keeps one for seconds): the status line counts them while the server is away.
  /// Online, it reads nothing.
  func tellWaitingWhileOffline(to onStatus: @escaping @Sendable (TeamSyncStatus) -> Void) async {
    while (try? await Task.sleep(for: Self.outboxLookInterval)) != nil {
      guard case .offline = lastStatus, let now = try? await waitingCount() else { continue }
      // NB: Read again after the count: a connection may have come online meanwhile.
      guard case .offline(let waiting, let problem) = lastStatus, now != waiting else { continue }
      tell(.offline(waiting: now, problem: problem), to: onStatus)
    }
  }
}
