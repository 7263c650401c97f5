import Synchronization

/// Turns on a connection: one holder at a time, the others waiting in the order they came.
///
/// A turn whose holder never ends (a statement the server never answers) holds only its own
/// connection's turns: when that connection closes, the link opens another with turns of its own.
/// A waiter whose task is cancelled (its engine stopped, or its connection closed) leaves the
/// line at once, so that nobody stays suspended behind such a holder. Guarded by
/// `TurnsTests`.
final class Turns: Sendable {
  private struct Line {
    var isTaken = false
    var waiting: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var lastID = 0
  }
  private let line = Mutex(Line())
  private enum Place { case holding, waiting, gone }

  /// Returns once the turn is the caller's; throws `CancellationError` if the caller's task is
  /// cancelled first, the turn then not being the caller's.
  func take() async throws {
    let id = line.withLock { line in
      line.lastID += 1
      return line.lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let place = line.withLock { line -> Place in
          // NB: Under the lock: a cancellation handler that ran before this found nobody to
          // take out of the line, and the flag it follows is already set.
          if Task.isCancelled { return .gone }
          guard line.isTaken else {
            line.isTaken = true
            return .holding
          }
          line.waiting.append((id, continuation))
          return .waiting
        }
        switch place {
        case .holding: continuation.resume()
        case .gone: continuation.resume(throwing: CancellationError())
        case .waiting: break
        }
      }
    } onCancel: {
      let waiter = line.withLock { line in
        line.waiting.firstIndex { $0.id == id }.map { line.waiting.remove(at: $0).continuation }
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// How many wait for the turn.
  var waitingCount: Int { line.withLock { $0.waiting.count } }

  /// Gives the turn to the first in line, if anyone waits.
  func give() {
    let next = line.withLock { line in
      guard !line.waiting.isEmpty else {
        line.isTaken = false
        return nil as CheckedContinuation<Void, any Error>?
      }
      return line.waiting.removeFirst().continuation
    }
    next?.resume()
  }
}
