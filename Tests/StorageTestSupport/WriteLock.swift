import Dispatch
import Foundation
public import GRDB

/// Another program holding a database's write lock, as `sqlite3` does after `BEGIN EXCLUSIVE`:
/// a transaction left open on a connection of its own, on a thread of its own, until
/// ``release()``.
///
/// ```swift
/// let lock = try #require(await WriteLock(onDatabaseAt: path))
/// // … the app's writes wait, and fail after their busy timeout …
/// await lock.release()
/// ```
public final class WriteLock: Sendable {
  private let released = DispatchSemaphore(value: 0)
  private let events: AsyncStream<Bool>

  /// Takes the write lock of the database at `path` (`BEGIN EXCLUSIVE` by default, or
  /// `BEGIN IMMEDIATE`), once a transaction under way there ends; `nil` when it could not be
  /// taken.
  public convenience init?(onDatabaseAt path: String, exclusive: Bool = true) async {
    // NB: The app may be committing at that moment: wait for its transaction, as `sqlite3`
    // with `.timeout` does, rather than fail at once.
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else {
      return nil
    }
    await self.init(queue, exclusive: exclusive)
  }

  /// Takes the write lock of `queue`'s database.
  public init?(_ queue: DatabaseQueue, exclusive: Bool = true) async {
    let (events, continuation) = AsyncStream<Bool>.makeStream()
    self.events = events
    let released = self.released
    Thread {
      do {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
          continuation.yield(true)
          released.wait()
          try db.execute(sql: "ROLLBACK")
        }
      } catch {
        continuation.yield(false)
      }
      continuation.finish()
    }.start()
    for await taken in events {
      guard taken else { return nil }
      return
    }
    return nil
  }

  /// Lets the lock go, and waits until it is gone.
  public func release() async {
    released.signal()
    for await _ in events {}
  }
}
