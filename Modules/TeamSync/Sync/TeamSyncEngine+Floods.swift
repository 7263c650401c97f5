import Foundation
import PostgresNIO
import StorageClient
import Synchronization

// A flood of the team's channel: a member can announce as often as they like, and each
// announcement costs a listening machine its decoding. The engine counts them as it hears them
// (`AnnouncementRate`), and after a flood looks at the server twice a second for a while instead
// of listening; the connection the flood came on, which the other teams there share, is ended at
// once (`endForAFlood`).
//
// Guarded by `StatusTests.aFloodOfAnnouncementsIsLeftUnheardAndChangesStillArrive` and
// `Sync.UnderAttack/announcementFlood`.

extension TeamSyncEngine {
  /// Calls `wake` at each of the team's `announcements`, until they come faster than a team's
  /// commits ever make them (``AnnouncementRate``): then the engine stops listening for a while
  /// (``flooded()``) and the connection ends. Throws when the connection ends first.
  nonisolated func hear(
    _ announcements: PostgresNotificationSequence, on open: ServerLink.Open,
    wake: @Sendable () -> Void
  ) async throws {
    var heard = AnnouncementRate()
    for try await _ in announcements {
      guard heard.takes(ContinuousClock.now) else {
        await flooded()
        // NB: Ended at once, not by UNLISTEN: the server sends announcements until it reads
        // that, and each one costs this machine its decoding. The other teams on the connection
        // connect again at once.
        await open.endForAFlood()
        return
      }
      wake()
    }
    throw SyncProblem.unreachable(server: "", reason: "the connection ended")
  }

  /// How often the engine asks the server whether anything is new while it does not listen,
  /// after a flood of announcements.
  static let floodedHeartbeat = Duration.milliseconds(500)

  /// Stops listening for a while after a flood of announcements: 10 seconds, twice as long
  /// after each flood, up to five minutes. A member can announce as often as they like, and each
  /// announcement costs this machine its decoding: ignoring a flood is what keeps an idle app
  /// idle, and looking twice a second keeps another member's change on screen within a second.
  func flooded() {
    isEndingForAFlood = true
    floods += 1
    quietUntil = .now + min(.seconds(10) * (1 << min(floods - 1, 5)), .seconds(300))
    logger.warning("The team's channel is flooded with announcements: looking twice a second")
  }
}

extension ServerLink.Open {
  /// Ends the connection for a flood of one team's announcements.
  func endForAFlood() async {
    isEndedForAFlood.store(true, ordering: .sequentiallyConsistent)
    try? await connection.close()
  }

  /// Whether the connection was ended for a flood, of this engine's team or another's.
  var wasEndedForAFlood: Bool {
    isEndedForAFlood.load(ordering: .sequentiallyConsistent)
  }
}

/// How often the team's channel announces: more than ``limit`` announcements within a second is
/// a flood, which no team's commits make (a round takes every commit announced meanwhile at
/// once, so a machine needs an announcement only now and then).
struct AnnouncementRate {
  static let limit = 50
  private var second: ContinuousClock.Instant?
  private var count = 0

  /// Counts an announcement heard at `now`; returns whether the rate is still below a flood's.
  mutating func takes(_ now: ContinuousClock.Instant) -> Bool {
    if let second, now - second < .seconds(1) {
      count += 1
    } else {
      second = now
      count = 1
    }
    return count <= Self.limit
  }
}
