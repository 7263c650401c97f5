import Foundation
import Models
import PostgresNIO
public import StorageClient

// The engine of an open app: one connection kept open, a look at each announcement of the
// team's, each change of this machine's and each heartbeat, a round when the look finds
// something to do, and a new connection after a wait when one fails
// (TeamSyncEngine+Offline.swift). A round itself (`round(on:role:)`) is in TeamSyncEngine.swift.

extension TeamSyncEngine {
  /// Syncs until cancelled, or until the machine leaves the team (it says why when the owner
  /// removed it, and nothing when it left here): one connection, a look at each announcement of
  /// the server's and each change of this machine's, a round when the look finds something to
  /// do, and a new connection after a wait when one fails.
  ///
  /// - Parameters:
  ///   - onStatus: Told whenever the status changes.
  ///   - onPulled: Told after a round that works, with what the rounds applied here since it was
  ///     last told: other machines' changes, and a round's that failed after applying them.
  public func run(
    onStatus: @escaping @Sendable (TeamSyncStatus) -> Void,
    onPulled: @escaping @Sendable (TeamPullReport) -> Void
  ) async {
    lastStatus = nil
    _ = takeUnreported()
    await withDiscardingTaskGroup { group in
      group.addTask { await self.tellWaitingWhileOffline(to: onStatus) }
      await syncUntilStopped(onStatus: onStatus, onPulled: onPulled)
      group.cancelAll()
    }
  }

  /// Connects, keeps syncing, and connects again after a wait when the connection fails, until
  /// the engine is cancelled or has a reason to stop.
  private func syncUntilStopped(
    onStatus: @escaping @Sendable (TeamSyncStatus) -> Void,
    onPulled: @escaping @Sendable (TeamPullReport) -> Void
  ) async {
    while !Task.isCancelled {
      isEndingForAFlood = false
      // NB: Set by this connection's body; a connection that failed before it ran was no flood's.
      openConnection = nil
      do {
        try await withOpenConnection { open in
          await self.connecting(on: open)
          let channel = try await open.inTurn {
            try await TeamServer.checkAccess(
              team: self.membership.team, role: open.role, on: open.connection,
              logger: self.logger)
          }
          if let quietUntil = await self.quietUntil, ContinuousClock.now < quietUntil {
            try await self.keepSyncing(
              on: open, channel: channel, hearing: .nothingUntil(quietUntil),
              onStatus: onStatus, onPulled: onPulled)
            return
          }
          try await open.connection.listen(on: channel) { announcements in
            try await self.keepSyncing(
              on: open, channel: channel, hearing: .announcements(announcements),
              onStatus: onStatus, onPulled: onPulled)
          }
        }
      } catch {
        guard await triesAgain(after: error, onStatus: onStatus) else { return }
      }
    }
  }

  /// Tells `status`, and keeps it as the last one told.
  ///
  /// Every status of a run goes through here, on the engine's actor, so that they reach
  /// `onStatus` in the order they were decided: a count read while offline can never be told
  /// after the "online" that followed it (``tellWaitingWhileOffline(to:)``). A cancelled task
  /// tells nothing: a connection's work that `CloseWatch` abandoned may still finish a round, and
  /// its "online" would come after the "offline" its close made.
  func tell(_ status: TeamSyncStatus, to onStatus: @Sendable (TeamSyncStatus) -> Void) {
    guard !Task.isCancelled else { return }
    lastStatus = status
    onStatus(status)
  }

  /// Notes that a round worked, so the next failure waits the shortest time; work that
  /// `CloseWatch` abandoned notes nothing.
  func connected() {
    guard !Task.isCancelled else { return }
    failures = 0
  }

  /// Notes the connection this run of the engine is on, shared or not.
  func connecting(on open: ServerLink.Open) {
    openConnection = open
  }

  /// How the engine hears of the team's changes between its looks.
  enum Hearing: Sendable {
    /// The team's channel, listened to: each announcement wakes the engine.
    case announcements(PostgresNotificationSequence)
    /// Nothing, until a quiet spell after a flood ends (TeamSyncEngine+Floods.swift): the
    /// engine looks twice a second instead.
    case nothingUntil(ContinuousClock.Instant)

    /// How often an idle engine asks the server whether anything is new, hearing this way.
    var heartbeat: Duration {
      switch self {
      case .announcements: TeamSyncEngine.heartbeat
      case .nothingUntil: TeamSyncEngine.floodedHeartbeat
      }
    }
  }

  /// Makes a round now, then looks again at each announcement `hearing` brings, each change of
  /// this machine's, every heartbeat, and, while a pull waits at a missing number, once the team
  /// may pass it; until the connection fails or the team's channel changes.
  ///
  /// A look costs one small statement when nothing is new (``look(on:channel:)``), and looks
  /// are at least ``lookFloor`` apart: announcements that come meanwhile make one look, however
  /// many there are, so that no flood of them makes an idle app busy.
  ///
  /// Syncing ends when the first of its tasks does. It returns when the engine should connect
  /// again: the announcements flooded (``hear(_:on:wake:)``), the quiet spell ended, or a look
  /// found the team's channel moved. It throws what the first of them to fail throws (a failed
  /// statement, here or on the server).
  func keepSyncing(
    on open: ServerLink.Open,
    channel: String,
    hearing: Hearing,
    onStatus: @escaping @Sendable (TeamSyncStatus) -> Void,
    onPulled: @escaping @Sendable (TeamPullReport) -> Void
  ) async throws {
    let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let (gapsMet, gapMet) = AsyncStream.makeStream(of: Void.self)
    wake.yield()
    let database = self.database
    let team = membership.id
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        switch hearing {
        case .announcements(let announcements):
          try await self.hear(announcements, on: open) { wake.yield() }
        case .nothingUntil(let end):
          try await Task.sleep(until: end)
        }
      }
      group.addTask {
        while !Task.isCancelled {
          try await Task.sleep(for: Self.outboxLookInterval)
          if try await database.waitingTeamChangeCount(in: team) > 0 { wake.yield() }
        }
      }
      group.addTask {
        // NB: Asking the server something now and then is what shows a server that stopped
        // answering within seconds (`DeadLinkDetection.AnswerWatch`).
        while !Task.isCancelled {
          try await Task.sleep(for: hearing.heartbeat)
          wake.yield()
        }
      }
      group.addTask {
        // NB: Each round a missing number stopped looks again once the team may have passed that
        // number: a wake of its own, however many such rounds there were meanwhile.
        await withDiscardingTaskGroup { waits in
          for await _ in gapsMet {
            waits.addTask {
              guard (try? await Task.sleep(for: Self.gapGrace)) != nil else { return }
              wake.yield()
            }
          }
        }
      }
      group.addTask {
        var isFirst = true
        for await _ in wakes {
          let started = ContinuousClock.now
          // NB: In turn with the other teams on the connection: a round's statements and the
          // look before it run together.
          let (found, made) = try await open.inTurn { [isFirst] () -> (Look, Round?) in
            let found =
              isFirst ? .round : try await self.look(on: open.connection, channel: channel)
            guard found == .round else { return (found, nil) }
            return (found, try await self.round(on: open.connection, role: open.role))
          }
          isFirst = false
          if found == .newChannel { return }
          if let made {
            await self.connected()
            let applied = await self.takeUnreported()
            if !applied.isEmpty { onPulled(applied) }
            await self.tell(.online(waiting: try await self.waitingCount()), to: onStatus)
            if made.gap != nil { gapMet.yield() }
          }
          try await Task.sleep(until: started + Self.lookFloor)
        }
      }
      try await group.next()
      group.cancelAll()
    }
  }

  /// How often an idle engine asks the server whether anything is new.
  static let heartbeat = Duration.seconds(2)

  /// The least time between two looks at the server.
  package static let lookFloor = Duration.milliseconds(250)

  /// What a look at the server found.
  enum Look {
    /// Nothing new, for the team or from it.
    case nothing
    /// Something to push, pull, or pass: a round.
    case round
    /// The team's announcements moved to another channel (a member was removed): the engine
    /// connects again and listens there.
    case newChannel
  }

  /// Whether a round has anything to do: a change waits here, a pull waits at a missing number,
  /// a recovery owes a resend (the membership's `resharePending`), or the team's newest change
  /// is not the last one applied here (or the role can no longer see the team, which the round
  /// says). One statement when nothing waits here.
  func look(on connection: PostgresConnection, channel: String) async throws -> Look {
    // NB: A team left here makes a round, which ends the engine (`membershipNow()`).
    guard let here = try await database.teamMembership(membership.id) else { return .round }
    let waiting = try await database.waitingTeamChangeCount(in: membership.id)
    if gapSeen != nil || here.resharePending || waiting > 0 {
      return .round
    }
    let rows = try await connection.allRows(
      """
      SELECT t.channel, \(unescaped: TeamServer.newestNumber)
      FROM standups_team.teams AS t WHERE t.name = \(membership.team)
      """, logger: logger)
    var found: (channel: String, newest: Int64)?
    for row in try rows.decode((String, Int64).self) { found = row }
    guard let found else { return .round }
    guard found.channel == channel else { return .newChannel }
    return found.newest == here.lastSequence ? .nothing : .round
  }

  func waitingCount() async throws -> Int {
    try await database.waitingTeamChangeCount(in: membership.id)
  }
}
