public import Foundation
import Models
public import PostgresNIO
public import StorageClient

/// Syncs this machine's shared standups with its team's PostgreSQL server.
///
/// A round pushes this machine's waiting changes in the order they were made,
/// in one insert per batch, then pulls the team's changes after the last one applied
/// here and applies them, in the server's order, a window at a time, each in one local
/// transaction (see ``/StorageClient/TeamLedger`` for why every machine ends in the same state).
/// Nothing local is lost when a round fails: a change leaves the outbox only once it comes back
/// from the server in the team's order (or in the compacted state a machine starts from).
///
/// ``run(onStatus:onPulled:)`` keeps one connection open, listens for the server's
/// announcements (`LISTEN`), and makes a round whenever another member commits or this machine
/// has a change waiting; when the server cannot be reached it says so and tries again, waiting
/// longer each time, up to ``longestWait``. The engines of several teams on one server share
/// that connection (``ServerLink``).
///
/// ```swift
/// let engine = TeamSyncEngine(database: database, membership: membership)
/// let round = try await engine.syncOnce()  // as `standups sync` does
/// print(round.pushed, round.pulled)
/// ```
public actor TeamSyncEngine {
  /// How long the engine waits before trying a server it could not reach again, at most.
  public static let longestWait = Duration.seconds(30)
  /// How often the engine looks for changes of this machine's waiting for the server: a read of
  /// the outbox's count, which costs next to nothing.
  public static let outboxLookInterval = Duration.milliseconds(200)

  let database: StandupsDatabase
  /// The team this engine syncs with, as `standups team join` recorded it.
  public let membership: TeamMembership
  let environment: [String: String]
  let logger: Logger
  /// The connection to the team's server, which the engines of this machine's other teams there
  /// may share.
  let link: ServerLink

  /// An engine for `membership`'s team, keeping `database` in sync with it.
  ///
  /// - Parameters:
  ///   - database: This machine's database.
  ///   - membership: The team it syncs with, as `standups team join` recorded it.
  ///   - environment: Where `PGPASSWORD`, `PGPASSFILE`, `HOME` and the other `PG…` variables
  ///     come from; the process's by default.
  ///   - logger: Where the engine logs.
  ///   - link: The connection to `membership`'s server that this machine's other teams there
  ///     share; one of the engine's own when `nil`.
  public init(
    database: StandupsDatabase,
    membership: TeamMembership,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    logger: Logger = .teamSync,
    link: ServerLink? = nil
  ) {
    precondition(link.map { $0.server == membership.server } ?? true, "a link to another server")
    self.database = database
    self.membership = membership
    self.environment = environment
    self.logger = logger
    self.link =
      link ?? ServerLink(server: membership.server, environment: environment, logger: logger)
  }

  /// What one round did.
  public struct Round: Equatable, Sendable {
    /// How many of this machine's changes went to the server.
    public var pushed = 0
    /// How many changes came from the server, this machine's own included.
    public var pulled = 0
    /// What applying them did.
    public var report = TeamPullReport()
    /// The gap the pull stopped at, when it did: a missing number whose push is still being
    /// committed, or, after a second, one the team passes (``TeamSyncEngine/gapGrace``).
    public var gap: Int64?
  }

  /// How long a missing number in the team's order is waited for before the team passes it: a
  /// push still being committed fills its numbers in far less (`pass_gaps` passes only numbers
  /// older than this on the server's clock).
  public static let gapGrace = Duration.milliseconds(1100)

  /// One round on an open connection: push this machine's waiting changes, read the team's
  /// order, pull and apply what is new, and tell the server how far this machine has pulled.
  /// Its caller checked the role's access when it took the connection (`TeamServer.checkAccess`);
  /// the round checks again, in one statement, that the role is still in the team and the schema
  /// still one this release syncs with, before the recoveries read a history that row-level
  /// security would hide from a member removed, or a newer release's schema would change.
  ///
  /// The recoveries are the calls between those steps (TeamSyncEngine+Recovery.swift), each of
  /// which finds nothing to do on an ordinary round: before the push, changes the server
  /// committed and lost are marked to go again; before the pull, a machine whose server was
  /// restored or whose place was pruned catches up with the order as it is now; after it, the
  /// standups a recovery kept are sent again.
  func round(on connection: PostgresConnection, role: String) async throws -> Round {
    var round = Round()
    let machine = MemberMachine(madeBy: role, machine: membership.machine)
    try await TeamServer.requireMembership(
      team: membership.team, role: role, on: connection, logger: logger)
    try await pushAgainWhatTheServerLost(from: machine, on: connection)
    round.pushed += try await pushWaiting(from: machine, on: connection)
    let here = try await membershipNow()
    let order = try await TeamServer.order(
      team: membership.team, at: here.lastSequence, role: role, on: connection, logger: logger)
    try await catchUp(with: order, from: here, as: role, on: connection, into: &round)
    try await pull(upTo: order.newest, as: role, on: connection, into: &round)
    let pulled = try await membershipNow()
    try await reportPlace(pulled.lastSequence, on: connection)
    try await sendAgainWhatARecoveryKept(after: pulled, from: machine, on: connection, into: &round)
    return round
  }

  /// Pushes this machine's waiting changes in batches; returns how many.
  func pushWaiting(
    from machine: MemberMachine, on connection: PostgresConnection
  ) async throws -> Int {
    var pushed = 0
    while true {
      let waiting = try await database.waitingTeamChanges(in: membership.id, limit: Self.batchSize)
      guard let last = waiting.last else { return pushed }
      try await TeamServer.push(
        waiting, team: membership.team, machine: machine, on: connection, logger: logger)
      try await database.teamChangesPushed(in: membership.id, through: last.machineSequence)
      pushed += waiting.count
    }
  }

  /// Pulls and applies everything after the last change applied here up to `newest`, window by
  /// window, until a missing number stops it (``Round/gap``); goes on past a number missing
  /// since an earlier round (``passGapSeenBefore(_:on:)``). When the owner prunes the history
  /// under the pull, starts from the compacted state and goes on after it
  /// (``window(after:as:on:into:)``).
  func pull(
    upTo newest: Int64, as role: String, on connection: PostgresConnection,
    into round: inout Round
  ) async throws {
    while true {
      let after = try await membershipNow().lastSequence
      // NB: A server behind this machine has nothing after it to pull.
      guard after < newest else { break }
      guard let window = try await window(after: after, as: role, on: connection, into: &round)
      else { continue }
      // NB: Applying nothing still notes when the machine was last in sync.
      round.report.merge(
        try await applying {
          try await database.applyPulledTeamChanges(
            window.changes, in: membership.id, through: window.through, as: role)
        })
      round.pulled += window.changes.count
      round.gap = window.gap
      if let gap = window.gap {
        guard try await passGapSeenBefore(gap, on: connection) else { break }
        round.gap = nil
        continue
      }
      if window.through <= after { break }
    }
    // NB: A copy kept apart at a standup's add may hold nothing the team's standup lacks once
    // the later windows are applied.
    round.report.keptApart = try await removeCopiesTheTeamCaughtUpWith(round.report.keptApart)
  }

  /// The window of the team's order after `after`, or `nil` when the owner pruned the history
  /// under the pull: the machine has then started from the compacted state, and the next window
  /// starts after it.
  func window(
    after: Int64, as role: String, on connection: PostgresConnection, into round: inout Round
  ) async throws -> TeamServer.Window? {
    do {
      return try await TeamServer.pull(
        team: membership.team, after: after, on: connection, logger: logger)
    } catch let pruned as TeamServer.HistoryPruned {
      try await startFromCompactedState(as: role, on: connection, into: &round)
      // NB: The state is made through the pruned beginning at least, so the next window
      // starts after it; only a machine that left the team meanwhile is still behind it.
      guard try await membershipNow().lastSequence >= pruned.through else {
        throw SyncProblem.notJoined
      }
      return nil
    }
  }

  /// This machine's membership of the team as it is now, with the place it has pulled to.
  ///
  /// - Throws: ``SyncProblem/notJoined`` once the machine has left the team (`team leave` in a
  ///   shell while the app runs), or joined it again as another machine: the engine ends, rather
  ///   than pull for a place it can no longer keep.
  func membershipNow() async throws -> TeamMembership {
    guard let here = try await database.teamMembership(membership.id),
      here.machine == membership.machine
    else {
      throw SyncProblem.notJoined
    }
    return here
  }

  /// Tells the server this machine's `place`, when it moved in this run of the engine: a prune
  /// keeps every change a machine still needs.
  private func reportPlace(_ place: Int64, on connection: PostgresConnection) async throws {
    guard place != reportedPlace else { return }
    try await TeamServer.reportPlace(
      place, machine: membership.machine, team: membership.team, on: connection, logger: logger)
    reportedPlace = place
  }

  /// Failed connections since the last that worked: the wait before the next grows with them.
  var failures = 0

  /// The status this run of the engine last told.
  var lastStatus: TeamSyncStatus?

  /// Until when the engine looks at the server twice a second rather than listening: the team's
  /// channel was flooded (``AnnouncementRate``).
  var quietUntil: ContinuousClock.Instant?

  /// Floods of the team's channel heard in this run: each makes the next quiet spell longer.
  var floods = 0

  /// Whether the engine ended this connection because of a flood: what then fails is no problem
  /// of the server's, and the engine connects again at once.
  var isEndingForAFlood = false

  /// The connection this run of the engine is on, which another team's flood may end.
  var openConnection: ServerLink.Open?

  /// The copies of this machine's own standups this engine's rounds kept apart (as
  /// ``TeamPullReport/keptApart`` tells them), for ``leaveAfterAFailedJoin()``. A copy is made
  /// once for each standup of this machine's the team takes over, so they are few.
  private(set) var copiesKeptApart: [TeamPullReport.KeptCopy] = []

  /// What this engine's rounds applied here that the app has not been told yet
  /// (``takeUnreported()``).
  ///
  /// Invariant: everything a round applies reaches `onPulled`, even when the round fails after
  /// a window's commit (a flood or a dead link ends its connection, or the server refuses its
  /// last statement): the next round that works tells it, so that the screen shows what the
  /// database holds. And nothing else does: a run starts with nothing unreported, so rounds made
  /// before it (``syncOnce()``, which returns what it applied) are never told again. Guarded by
  /// `StatusTests.whatAFailedRoundAppliedIsToldAfterTheNextRoundThatWorks` and
  /// `StatusTests.aRunTellsOnlyWhatItsOwnRoundsApplied`.
  private var unreported = TeamPullReport()

  /// What the rounds applied that the app has not been told, leaving nothing.
  func takeUnreported() -> TeamPullReport {
    defer { unreported = TeamPullReport() }
    return unreported
  }

  /// Runs one of the rounds' writes to this machine's database, and notes what it applied
  /// (`unreported`, `copiesKeptApart`) as it ends, with nothing else of the engine's between.
  ///
  /// NB: Noted when the write commits, not when the round ends: a round whose connection closes
  /// is abandoned (`CloseWatch`), so its caller may go on (leave after a failed join, or make
  /// the next round) before the round unwinds, or it never does (a statement left unanswered).
  /// Guarded by `JoinCutShortTests.aLeaveWhileTheJoinsRoundStillRunsPutsBackWhatItKeptApart`
  /// and, for a write under way, `JoinCutShortTests.aLeaveWaitsForAWriteOfTheRoundUnderWay`.
  func applying(
    _ write: @Sendable () async throws -> TeamPullReport
  ) async throws -> TeamPullReport {
    writesUnderWay += 1
    defer {
      writesUnderWay -= 1
      if writesUnderWay == 0 {
        for waiting in waitingForWrites { waiting.resume() }
        waitingForWrites = []
      }
    }
    let report = try await write()
    unreported.merge(report)
    copiesKeptApart += report.keptApart
    return report
  }

  /// Removes the copies of `kept` the team has caught up with
  /// (`StandupsDatabase.removeCopiesTheTeamCaughtUpWith`), and drops them from what the engine
  /// notes; returns the copies still kept.
  func removeCopiesTheTeamCaughtUpWith(
    _ kept: [TeamPullReport.KeptCopy]
  ) async throws -> [TeamPullReport.KeptCopy] {
    let stillKept = try await database.removeCopiesTheTeamCaughtUpWith(kept)
    let removed = kept.filter { !stillKept.contains($0) }
    copiesKeptApart.removeAll(where: removed.contains)
    unreported.keptApart.removeAll(where: removed.contains)
    return stillKept
  }

  /// How many of the rounds' writes are under way.
  private(set) var writesUnderWay = 0
  /// Who waits for them to end (``writesEnded()``).
  var waitingForWrites: [CheckedContinuation<Void, Never>] = []

  /// How far this machine last told the server it has pulled, in this run of the engine.
  private var reportedPlace: Int64?

  /// The missing number a pull last stopped at, and when it first did.
  var gapSeen: (number: Int64, at: ContinuousClock.Instant)?

  // NB: Large enough that a first push of 10,000 changes takes ten round trips, small enough
  // that one batch's statement ends well within the time the team gives a number to commit.
  private static let batchSize = 1000

  /// Runs `body` on the connection to the team's server (``ServerLink``), which it may share
  /// with other teams' engines; every failure comes out as a ``SyncProblem``.
  nonisolated func withOpenConnection<Result: Sendable>(
    _ body: @escaping @Sendable (ServerLink.Open) async throws -> Result
  ) async throws(SyncProblem) -> Result {
    try await link.withConnection(body)
  }
}
