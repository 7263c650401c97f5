import PostgresNIO
import Synchronization

extension PostgresConnection {
  /// Runs `body`, and throws `whyClosed()` (``ServerClosedTheConnection`` unless told
  /// otherwise) as soon as this connection closes, whatever `body` waits on.
  ///
  /// postgres-nio can leave a statement unanswered for ever when the server closes the
  /// connection just as the statement is sent, as when the server is stopped with `pg_ctl stop
  /// -m immediate` (its pull request 487 mended it and 501 reverted that). A machine must then
  /// say the server cannot be reached, not hang. So `body` runs in a task of its own, and
  /// whichever ends first, `body` or the connection, ends the call. A statement left waiting
  /// is abandoned with its task: nothing will ever resume it, and the work after it never runs.
  ///
  /// Invariant: the caller is resumed exactly once (the first of `body`, the connection's
  /// close, or the caller's cancellation takes the continuation). Guarded by
  /// `TeamCommandLineTests.setUpWaitingOnAnotherWhenTheServerStopsEndsWithASentence`.
  func untilClosed<Result: Sendable>(
    whyClosed: @escaping @Sendable () -> any Error = { ServerClosedTheConnection() },
    _ body: @escaping @Sendable () async throws -> Result
  ) async throws -> Result {
    let caller = Mutex<CheckedContinuation<Result, any Error>?>(nil)
    let work = Mutex<Task<Void, Never>?>(nil)
    let resume: @Sendable (Swift.Result<Result, any Error>) -> Void = { outcome in
      caller.withLock { $0.take() }?.resume(with: outcome)
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        caller.withLock { $0 = continuation }
        guard !Task.isCancelled else { return resume(.failure(CancellationError())) }
        work.withLock {
          $0 = Task {
            do {
              resume(.success(try await body()))
            } catch {
              resume(.failure(error))
            }
          }
        }
        closeFuture.whenComplete { _ in
          // NB: Abandoned, the work is told so: what it waits on that heeds cancellation (a
          // sleep, a task group's other children) ends, and a turn it waits for runs nothing.
          work.withLock { $0 }?.cancel()
          resume(.failure(whyClosed()))
        }
      }
    } onCancel: {
      work.withLock { $0 }?.cancel()
      resume(.failure(CancellationError()))
    }
  }
}

/// The server closed the connection while a statement waited on it.
struct ServerClosedTheConnection: Error {}
