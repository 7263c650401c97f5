import NIOCore
import PostgresNIO
import Synchronization

/// The watch on one connection's close: work run through ``untilClosed(whyClosed:_:)`` ends
/// with why as soon as the connection closes, whatever it waits on.
///
/// postgres-nio can leave a statement unanswered for ever when the server closes the
/// connection just as the statement is sent, as when the server is stopped with `pg_ctl stop
/// -m immediate` (its pull request 487 mended it and 501 reverted that). A machine must then
/// say the server cannot be reached, not hang. So the work runs in a task of its own, and
/// whichever ends first, the work or the connection, ends the call. A statement left waiting
/// is abandoned with its task: nothing will ever resume it, and the work after it never runs.
///
/// One watch serves every call on its connection: it asks the connection once to be told of its
/// close, and each call is on its list only while it runs, so that a connection the teams share
/// for hours holds no more than the calls running on it.
///
/// Invariant: each caller is resumed exactly once (the first of its work, the connection's
/// close, or the caller's cancellation takes the continuation). Guarded by
/// `TeamCommandLineTests.setUpWaitingOnAnotherWhenTheServerStopsEndsWithASentence` and
/// `CloseWatchTests`.
final class CloseWatch: Sendable {
  private struct Watchers {
    var isClosed = false
    var lastID = 0
    var waiting: [Int: @Sendable () -> Void] = [:]
  }
  private let watchers = Mutex(Watchers())

  /// A watch on the connection whose close `closed` completes.
  init(_ closed: EventLoopFuture<Void>) {
    // NB: Holds the watch until the connection closes, which is what it watches for.
    closed.whenComplete { _ in self.tellEachClosed() }
  }

  private func tellEachClosed() {
    let waiting = watchers.withLock { watchers in
      watchers.isClosed = true
      defer { watchers.waiting = [:] }
      return watchers.waiting.values
    }
    for tell in waiting { tell() }
  }

  /// A watch on `connection`'s close.
  convenience init(_ connection: PostgresConnection) {
    self.init(connection.closeFuture)
  }

  /// How many calls wait on the connection now.
  var waitingCount: Int { watchers.withLock { $0.waiting.count } }

  /// Runs `body`, and throws `whyClosed()` (``ServerClosedTheConnection`` unless told
  /// otherwise) as soon as the connection closes.
  func untilClosed<Result: Sendable>(
    whyClosed: @escaping @Sendable () -> any Error = { ServerClosedTheConnection() },
    _ body: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let caller = Mutex<CheckedContinuation<Result, any Error>?>(nil)
    let work = Mutex<Task<Void, Never>?>(nil)
    let resume: @Sendable (Swift.Result<Result, any Error>) -> Void = { outcome in
      caller.withLock { $0.take() }?.resume(with: outcome)
    }
    // NB: Take the caller, cancel the work, then resume: the caller gets why, never the result of
    // work that ended at its cancellation (`workThatEndsAtItsCancellationStillEndsWithWhy`).
    let abandon: @Sendable (any Error) -> Void = { why in
      let continuation = caller.withLock { $0.take() }
      work.withLock { $0 }?.cancel()
      continuation?.resume(throwing: why)
    }
    let id = watchers.withLock { watchers in
      watchers.lastID += 1
      return watchers.lastID
    }
    defer { _ = watchers.withLock { $0.waiting.removeValue(forKey: id) } }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        caller.withLock { $0 = continuation }
        guard !Task.isCancelled else { return resume(.failure(CancellationError())) }
        let closed: @Sendable () -> Void = { abandon(whyClosed()) }
        let isClosed = watchers.withLock { watchers in
          if !watchers.isClosed { watchers.waiting[id] = closed }
          return watchers.isClosed
        }
        guard !isClosed else { return resume(.failure(whyClosed())) }
        // NB: Only while the caller waits; an `abandon` meanwhile waits on this lock to cancel it.
        work.withLock { work in
          guard caller.withLock({ $0 != nil }) else { return }
          work = Task {
            do {
              resume(.success(try await body()))
            } catch {
              resume(.failure(error))
            }
          }
        }
      }
    } onCancel: {
      abandon(CancellationError())
    }
  }
}

/// The server closed the connection while a statement waited on it.
struct ServerClosedTheConnection: Error {}
