import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import TeamSync

/// Work on a connection ends as soon as the connection closes (`CloseWatch`), and the watch
/// holds only the calls running: one connection the teams share for hours does not grow.
// NB: A limit for a hang, not a timing: alone the suite takes a tenth of a second, but beside
// the other suites each of the race's 200 calls waits its turn for the shared threads several
// times, and CI's runs took 46 to 70 seconds.
@Suite(.timeLimit(.minutes(3)))
struct CloseWatchTests {
  @Test func callsThatEndLeaveNothingOnTheWatch() async throws {
    let closed = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
    defer { closed.succeed() }
    let watch = CloseWatch(closed.futureResult)
    for number in 1...100 {
      let answer = try await watch.untilClosed {
        #expect(watch.waitingCount == 1)
        return number
      }
      #expect(answer == number)
    }
    await #expect(throws: Oops.self) { try await watch.untilClosed { throw Oops() } }
    #expect(watch.waitingCount == 0)
  }

  @Test func workTheConnectionsCloseAbandonsEndsWithWhyAndIsCancelled() async throws {
    let closed = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
    let watch = CloseWatch(closed.futureResult)
    let (started, start) = AsyncStream.makeStream(of: Void.self)
    let wasCancelled = Mutex(false)
    let waiting = Task {
      try await watch.untilClosed(whyClosed: { Oops() }) {
        start.yield()
        // NB: A statement the server never answers: nothing ends it but cancellation.
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        for await _ in never {}
        wasCancelled.withLock { $0 = Task.isCancelled }
      }
    }
    var didStart = started.makeAsyncIterator()
    await didStart.next()

    closed.succeed()
    await #expect(throws: Oops.self) { try await waiting.value }
    #expect(watch.waitingCount == 0)
    while !wasCancelled.withLock({ $0 }) { await Task.yield() }

    let ran = Mutex(false)
    await #expect(throws: ServerClosedTheConnection.self) {
      try await watch.untilClosed { ran.withLock { $0 = true } }
    }
    #expect(!ran.withLock { $0 })
  }

  /// Work that ends as soon as it is cancelled, as a statement postgres-nio gives up does, races
  /// the close that cancelled it to the caller; the close must win every time. Many calls, for a
  /// race the scheduler decides: with the work cancelled before the caller was taken, about one
  /// in sixteen came back as the work's own result, so that 200 calls all passing by chance is
  /// about as likely as four in a million. Few enough that the calls take seconds, not minutes,
  /// beside the other suites.
  @Test func workThatEndsAtItsCancellationStillEndsWithWhy() async throws {
    var endedWithWhy = 0
    for _ in 1...200 {
      let closed = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
      let watch = CloseWatch(closed.futureResult)
      let (started, start) = AsyncStream.makeStream(of: Void.self)
      let waiting = Task {
        try await watch.untilClosed(whyClosed: { Oops() }) {
          start.yield()
          let (never, _) = AsyncStream.makeStream(of: Void.self)
          for await _ in never {}
        }
      }
      var didStart = started.makeAsyncIterator()
      await didStart.next()
      closed.succeed()
      do {
        try await waiting.value
      } catch is Oops {
        endedWithWhy += 1
      }
    }
    #expect(endedWithWhy == 200)
  }

  private struct Oops: Error {}
}
