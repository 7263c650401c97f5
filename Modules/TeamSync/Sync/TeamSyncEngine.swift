public import Foundation
import Models
public import PostgresNIO
public import StorageClient

/// Syncs this machine's shared standups with its team's PostgreSQL server.
///
/// A round (``syncOnce()``) pushes this machine's waiting changes in the order they were made,
/// in one statement per batch, then pulls the team's changes after the last one applied
/// here and applies them, in the server's order, in one local transaction (see
/// `StorageClient.TeamLedger` for why every machine ends in the same state). Nothing local is
/// lost when a round fails: a change leaves the outbox only once the server has committed it.
///
/// ``run(onStatus:onPulled:)`` keeps one connection open, listens for the server's
/// announcements (`LISTEN`), and makes a round whenever another member commits or this machine
/// has a change waiting; when the server cannot be reached it says so and tries again, waiting
/// longer each time, up to ``longestWait``.
///
/// ```swift
/// let engine = TeamSyncEngine(database: database, membership: membership)
/// let round = try await engine.syncOnce()  // one round, as `standups sync` does
/// print(round.pushed, round.pulled)
/// ```
public actor TeamSyncEngine {
  /// How long the engine waits before trying a server it could not reach again, at most.
  public static let longestWait = Duration.seconds(30)
  /// How often the engine looks for changes of this machine's waiting for the server: a read of
  /// the outbox's count, which costs next to nothing.
  public static let outboxLookInterval = Duration.milliseconds(200)

  let database: StandupsDatabase
  let membership: TeamMembership
  let environment: [String: String]
  let logger: Logger

  /// An engine for `membership`'s team, keeping `database` in sync with it.
  ///
  /// - Parameters:
  ///   - database: This machine's database.
  ///   - membership: The team it syncs with, as `standups team join` recorded it.
  ///   - environment: Where `PGPASSWORD`, `PGPASSFILE`, `HOME` and the other `PG…` variables
  ///     come from; the process's by default.
  ///   - logger: Where the engine logs.
  public init(
    database: StandupsDatabase,
    membership: TeamMembership,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    logger: Logger = .teamSync
  ) {
    self.database = database
    self.membership = membership
    self.environment = environment
    self.logger = logger
  }

  /// What one round did.
  public struct Round: Equatable, Sendable {
    /// How many of this machine's changes went to the server.
    public var pushed = 0
    /// How many changes came from the server, this machine's own included.
    public var pulled = 0
    /// What applying them did.
    public var report = TeamPullReport()
    /// The missing number the pull stopped at, when it did: a push being committed, or, after a
    /// second, a number the team passes (``TeamSyncEngine/gapGrace``).
    public var waitingAt: Int64?
  }

  /// How long a missing number in the team's order is waited for before the team passes it: a
  /// push still being committed fills its numbers in far less (`pass_gaps` passes only numbers
  /// older than this on the server's clock).
  public static let gapGrace = Duration.milliseconds(1100)

  /// Pushes everything waiting and pulls everything new, once, on a connection of its own.
  /// A pull stopped at a missing number waits for it, and then has the team pass it: at most a
  /// few seconds.
  ///
  /// - Throws: ``SyncProblem``.
  public func syncOnce() async throws(SyncProblem) -> Round {
    do {
      return try await withServer { connection, description in
        var round = try await self.round(on: connection, role: description.user)
        for _ in 1...3 where round.waitingAt != nil {
          try await Task.sleep(for: Self.gapGrace)
          let again = try await self.round(on: connection, role: description.user)
          round.pushed += again.pushed
          round.pulled += again.pulled
          round.report.merge(again.report)
          round.waitingAt = again.waitingAt
        }
        return round
      }
    } catch {
      throw await leavingIfRemoved(error)
    }
  }

  /// `problem`, unless it says this machine's role is no longer in the team: then the machine
  /// leaves the team (its standups stay as personal ones, and nothing more is pushed or
  /// pulled), and the problem is ``SyncProblem/removed(role:team:)``.
  private func leavingIfRemoved(_ problem: SyncProblem) async -> SyncProblem {
    guard case .notAMember(let role, let team) = problem else { return problem }
    do {
      _ = try await database.leaveTeam()
    } catch {
      return .database(reason: error.description)
    }
    return .removed(role: role, team: team)
  }

  /// One connection kept open for rounds made one after the other: what the benchmarks
  /// measure, a round without the cost of connecting.
  package struct Session: Sendable {
    let engine: TeamSyncEngine
    let connection: PostgresConnection
    let role: String

    /// One round on the open connection.
    package func round() async throws -> Round {
      try await engine.round(on: connection, role: role)
    }

    /// Closes the connection.
    package func close() async {
      try? await connection.close()
    }
  }

  /// Opens a ``Session``.
  package func session() async throws -> Session {
    let description = try ConnectionDescription(url: membership.server, environment: environment)
    let connection = try await description.connect(
      password: description.password(environment: environment), logger: logger)
    return Session(engine: self, connection: connection, role: description.user)
  }

  /// Connects and checks that the role may use the team, changing nothing.
  ///
  /// - Throws: ``SyncProblem``.
  public func checkAccess() async throws(SyncProblem) {
    let team = membership.team
    let logger = self.logger
    _ = try await withServer { connection, description in
      try await TeamServer.checkAccess(
        team: team, role: description.user, on: connection, logger: logger)
    }
  }

  /// Syncs until cancelled: one connection, a round at each announcement of the server's and
  /// each change of this machine's, and a new connection after a wait when one fails.
  ///
  /// - Parameters:
  ///   - onStatus: Told whenever the status changes.
  ///   - onPulled: Told after a round that applied other machines' changes here.
  public func run(
    onStatus: @escaping @Sendable (TeamSyncStatus) -> Void,
    onPulled: @escaping @Sendable (TeamPullReport) -> Void
  ) async {
    while !Task.isCancelled {
      isEndingForAFlood = false
      do {
        try await withServer { connection, description in
          let channel = try await TeamServer.checkAccess(
            team: self.membership.team, role: description.user, on: connection,
            logger: self.logger)
          if let quietUntil = await self.quietUntil, ContinuousClock.now < quietUntil {
            // NB: The team's channel was flooded: look twice a second instead, for a while.
            try await self.keepSyncing(
              on: connection, role: description.user, channel: channel,
              heartbeat: Self.floodedHeartbeat, onStatus: onStatus, onPulled: onPulled
            ) { _ in try await Task.sleep(until: quietUntil) }
            return
          }
          try await connection.listen(on: channel) { announcements in
            try await self.keepSyncing(
              on: connection, role: description.user, channel: channel,
              heartbeat: Self.heartbeat, onStatus: onStatus, onPulled: onPulled
            ) { wake in
              var heard = AnnouncementRate()
              for try await _ in announcements {
                guard heard.takes(ContinuousClock.now) else {
                  await self.flooded()
                  // NB: Ended at once, not by UNLISTEN: the server sends announcements until it
                  // reads that, and each one costs this machine its decoding.
                  try? await connection.close()
                  return
                }
                wake()
              }
              throw SyncProblem.unreachable(server: "", reason: "the connection ended")
            }
          }
        }
      } catch {
        guard !Task.isCancelled else { return }
        if isEndingForAFlood { continue }
        let waiting = (try? await waitingCount()) ?? 0
        let problem = await leavingIfRemoved(error)
        switch problem {
        case .notAMember, .removed, .schema, .connection, .notJoined:
          onStatus(.stopped(waiting: waiting, problem: problem))
          return
        case .unreachable, .noAnswer, .noFreeConnection, .busy, .failed, .refused, .untrusted,
          .database:
          onStatus(.offline(waiting: waiting, problem: problem))
        }
        failures += 1
        let seconds = min(1 << min(failures - 1, 5), Int(Self.longestWait.components.seconds))
        await waitBeforeTryingAgain(
          for: .seconds(seconds), waiting: waiting, problem: problem, onStatus: onStatus)
      }
    }
  }

  /// Waits `duration` before the next connection, saying how many changes wait as the user
  /// makes more: the status line counts them while the server is away.
  private func waitBeforeTryingAgain(
    for duration: Duration,
    waiting: Int,
    problem: SyncProblem,
    onStatus: @Sendable (TeamSyncStatus) -> Void
  ) async {
    var told = waiting
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end, !Task.isCancelled {
      try? await Task.sleep(for: min(Self.outboxLookInterval, end - ContinuousClock.now))
      guard let now = try? await waitingCount(), now != told else { continue }
      told = now
      onStatus(.offline(waiting: now, problem: problem))
    }
  }

  /// Failed connections since the last that worked: the wait before the next grows with them.
  private var failures = 0

  /// Until when the engine looks at the server twice a second rather than listening: the team's
  /// channel was flooded (``AnnouncementRate``).
  private(set) var quietUntil: ContinuousClock.Instant?

  /// Floods of the team's channel heard in this run: each makes the next quiet spell longer.
  private var floods = 0

  /// Whether the engine ended this connection because of a flood: what then fails is no problem
  /// of the server's, and the engine connects again at once.
  private var isEndingForAFlood = false

  /// Stops listening for a while after a flood of announcements: 10 seconds, twice as long
  /// after each flood, up to five minutes. A member can announce as often as they like, and each
  /// announcement costs this machine its decoding: ignoring a flood is what keeps an idle app
  /// idle, and looking twice a second keeps another member's change on screen within a second.
  private func flooded() {
    isEndingForAFlood = true
    floods += 1
    quietUntil = .now + min(.seconds(10) * (1 << min(floods - 1, 5)), .seconds(300))
    logger.warning("The team's channel is flooded with announcements: looking twice a second")
  }

  private func connected() {
    failures = 0
  }

  /// Makes a round now, then looks again at each announcement, each change of this machine's,
  /// every ``heartbeat``, and, while a pull waits at a missing number, once the team may pass
  /// it; until the connection fails or the team's channel changes.
  ///
  /// A look costs one small statement when nothing is new (``look(on:channel:)``), and looks
  /// are at least ``lookFloor`` apart: announcements that come meanwhile make one look, however
  /// many there are, so that no flood of them makes an idle app busy.
  ///
  /// `announced` calls its argument at each announcement, and returns when the engine should
  /// connect again (a flood, or the end of a quiet spell).
  private func keepSyncing(
    on connection: PostgresConnection,
    role: String,
    channel: String,
    heartbeat: Duration,
    onStatus: @escaping @Sendable (TeamSyncStatus) -> Void,
    onPulled: @escaping @Sendable (TeamPullReport) -> Void,
    announced: @escaping @Sendable (@escaping @Sendable () -> Void) async throws -> Void
  ) async throws {
    let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    wake.yield()
    let database = self.database
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        try await announced { wake.yield() }
      }
      group.addTask {
        while !Task.isCancelled {
          try await Task.sleep(for: Self.outboxLookInterval)
          if try await database.waitingTeamChangeCount() > 0 { wake.yield() }
        }
      }
      group.addTask {
        // NB: Asking the server something now and then is what shows a server that stopped
        // answering within seconds (`DeadLinkDetection.AnswerWatch`).
        while !Task.isCancelled {
          try await Task.sleep(for: heartbeat)
          wake.yield()
        }
      }
      group.addTask {
        var isFirst = true
        for await _ in wakes {
          let started = ContinuousClock.now
          let look = isFirst ? .round : try await self.look(on: connection, channel: channel)
          isFirst = false
          if look == .newChannel { return }
          if look == .round {
            let round = try await self.round(on: connection, role: role)
            await self.connected()
            if !round.report.isEmpty { onPulled(round.report) }
            onStatus(.online(waiting: try await self.waitingCount()))
            if round.waitingAt != nil {
              Task {
                try await Task.sleep(for: Self.gapGrace)
                wake.yield()
              }
            }
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

  /// How often it asks while it does not listen, after a flood of announcements.
  static let floodedHeartbeat = Duration.milliseconds(500)

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
  /// or the team's newest change is not the last one applied here (or the role can no longer
  /// see the team, which the round says). One statement when nothing waits here.
  private func look(on connection: PostgresConnection, channel: String) async throws -> Look {
    let here = try await database.teamMembership()
    let waiting = try await database.waitingTeamChangeCount()
    if gapSeen != nil || here?.resharePending == true || waiting > 0 {
      return .round
    }
    let rows = try await connection.query(
      """
      SELECT t.channel, GREATEST(
        (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = t.name),
        (SELECT s.through FROM standups_team.compacted_states AS s WHERE s.team = t.name))
      FROM standups_team.teams AS t WHERE t.name = \(membership.team)
      """, logger: logger)
    var found: (channel: String, newest: Int64?)?
    for try await row in rows.decode((String, Int64?).self) { found = row }
    guard let found else { return .round }
    guard found.channel == channel else { return .newChannel }
    return (found.newest ?? 0) == (here?.lastSequence ?? 0) ? .nothing : .round
  }

  private func waitingCount() async throws -> Int {
    try await database.waitingTeamChangeCount()
  }

  /// One round on an open connection: push, pull, and tell the server how far this machine has
  /// pulled.
  ///
  /// A machine whose place the owner pruned from the history, or one that has never pulled
  /// from a team whose history was compacted, starts from the compacted state rather than from
  /// each change (`StorageClient.TeamLedger.startFrom`). When the server has forgotten changes
  /// this machine applied, the round starts again from the server's first change, and after the
  /// pull sends again the shared standups whose last change the server lost (see
  /// `StorageClient.TeamLedger.rewind(to:resending:_:)`).
  func round(on connection: PostgresConnection, role: String) async throws -> Round {
    try await TeamServer.checkAccess(
      team: membership.team, role: role, on: connection, logger: logger)
    var round = Round()
    let machine = MemberMachine(madeBy: role, machine: membership.machine)
    try await pushAgainWhatTheServerLost(from: machine, on: connection)
    round.pushed += try await pushWaiting(from: machine, on: connection)
    let here = try await database.teamMembership()
    let place = here?.lastSequence ?? 0
    let order = try await TeamServer.order(
      team: membership.team, at: place, role: role, on: connection, logger: logger)
    let forgot = try await serverForgot(place: place, order: order, on: connection)
    if forgot {
      logger.warning("The team's server has forgotten changes this machine applied")
      try await startAgain(at: place, order: order, as: role, on: connection, into: &round)
    } else if place < order.prunedThrough
      || (here?.lastSyncedAt == nil && place < order.compactedThrough)
    {
      try await startFromCompactedState(as: role, on: connection, into: &round)
    }
    try await pull(upTo: order.newest, as: role, on: connection, into: &round)
    if let gap = round.waitingAt, try await passGapSeenBefore(gap, on: connection) {
      round.waitingAt = nil
      try await pull(upTo: order.newest, as: role, on: connection, into: &round)
    }
    let pulled = try await database.teamMembership()?.lastSequence ?? 0
    if pulled != reportedPlace {
      try await TeamServer.reportPulled(
        through: pulled, machine: membership.machine, team: membership.team, on: connection,
        logger: logger)
      reportedPlace = pulled
    }
    if forgot || here?.resharePending == true {
      round.report.sentAgain = try await database.resendTeamStandups()
      round.pushed += try await pushWaiting(from: machine, on: connection)
    }
    return round
  }

  /// The shared standups whose last change applied here the server no longer has, and those
  /// with none recorded: what a machine sends again after a restore. Asked before the pull
  /// brings anyone's newer changes: a server restored keeps a beginning of its order, so a
  /// standup whose last change it kept has every change this machine applied to it.
  private func standupsTheServerLost(on connection: PostgresConnection) async throws
    -> [Standup.ID]
  {
    let last = try await database.lastTeamChanges()
    let kept = try await TeamServer.kept(
      Array(Set(last.values)), team: membership.team, on: connection, logger: logger)
    return try await database.sharedStandupIDs().filter { id in
      last[id].map { !kept.contains($0) } ?? true
    }
  }

  /// Whether the server has forgotten changes this machine applied: the change at `place`, the
  /// last this machine applied, is missing from its order, or is one this machine never saw
  /// (others pushed new changes after the server was restored from an older backup). When the
  /// owner pruned the history through `place`, the server is asked instead whether it has, in
  /// its history or its compacted state, the last change applied here of each machine's.
  private func serverForgot(
    place: Int64, order: TeamServer.Order, on connection: PostgresConnection
  ) async throws -> Bool {
    guard place > 0 else { return false }
    // NB: A database an earlier release pulled into has seen no machine yet; it learns them as
    // it pulls.
    let seen = try await database.teamChangesSeen()
    guard place > order.prunedThrough else {
      let known = try await TeamServer.newestChanges(
        of: Array(seen.keys), team: membership.team, on: connection, logger: logger)
      return seen.contains { machine, applied in known[machine, default: 0] < applied }
    }
    guard let found = order.atPlace else { return true }
    return !seen.isEmpty && found.machineSequence > seen[found.machine, default: 0]
  }

  /// Starts again after the server forgot changes this machine applied: replays the server's
  /// history from its beginning, applying only what is new here, and after the pull sends again
  /// the standups whose last change the server lost.
  ///
  /// A history whose pruned beginning holds what this machine cannot replay (its own place was
  /// pruned, or the compacted state folds changes it never saw) is not replayed: the machine
  /// starts from the compacted state keeping every shared standup as it is here, and sends them
  /// all again, so that it loses nothing. Where its values and the state's differ, its own are
  /// sent and win: the state cannot say which are newer.
  private func startAgain(
    at place: Int64, order: TeamServer.Order, as role: String,
    on connection: PostgresConnection, into round: inout Round
  ) async throws {
    if order.prunedThrough > 0,
      let state = try await TeamServer.compactedState(
        team: membership.team, on: connection, logger: logger)
    {
      let seen = try await database.teamChangesSeen()
      let unseen = state.machinesSeen.contains { machine, folded in
        seen[machine, default: 0] < folded
      }
      if place <= order.prunedThrough || unseen {
        round.report.merge(
          try await database.startFromCompactedTeamState(
            state, as: role, keeping: try await database.sharedStandupIDs()))
        return
      }
    }
    try await database.rewindTeam(
      to: order.prunedThrough, resending: try await standupsTheServerLost(on: connection))
  }

  /// Marks for pushing again this machine's changes the server committed and no longer has: a
  /// server restored from an older backup after the push, before they came back in a pull.
  /// Costs a read of the outbox, and a statement only while pushed changes have not come back.
  private func pushAgainWhatTheServerLost(
    from machine: MemberMachine, on connection: PostgresConnection
  ) async throws {
    guard let pushed = try await database.newestPushedTeamChange() else { return }
    let kept = try await TeamServer.newestChange(
      of: machine, team: membership.team, on: connection, logger: logger)
    if kept < pushed {
      logger.warning("The team's server has lost changes this machine pushed")
      try await database.teamChangesNotPushed(after: kept)
    }
  }

  /// Pushes this machine's waiting changes in batches; returns how many.
  private func pushWaiting(
    from machine: MemberMachine, on connection: PostgresConnection
  ) async throws -> Int {
    var pushed = 0
    while true {
      let waiting = try await database.waitingTeamChanges(limit: Self.batchSize)
      guard let last = waiting.last else { return pushed }
      try await TeamServer.push(
        waiting, team: membership.team, machine: machine, on: connection, logger: logger)
      try await database.teamChangesPushed(through: last.sequence)
      pushed += waiting.count
    }
  }

  /// Starts from the team's compacted state (see ``round(on:role:)``).
  private func startFromCompactedState(
    as role: String, on connection: PostgresConnection, into round: inout Round
  ) async throws {
    // NB: Only the owner writes or removes a state, and a prune writes one with the pruned
    // beginning in the same transaction: a missing one is a server an administrator changed.
    guard
      let state = try await TeamServer.compactedState(
        team: membership.team, on: connection, logger: logger)
    else {
      throw SyncProblem.schema(.unreadableCompactedState(reason: "it is missing"))
    }
    logger.info("Starting from the team's compacted state, made through change \(state.through)")
    round.report.merge(try await database.startFromCompactedTeamState(state, as: role))
  }

  /// Pulls and applies everything after the last change applied here up to `newest`, window by
  /// window, until a missing number stops it (``Round/waitingAt``); when the owner prunes the
  /// history under the pull, starts from the compacted state and goes on after it.
  private func pull(
    upTo newest: Int64, as role: String, on connection: PostgresConnection,
    into round: inout Round
  ) async throws {
    while true {
      let after = try await database.teamMembership()?.lastSequence ?? membership.lastSequence
      // NB: A server behind this machine has nothing after it to pull.
      guard after < newest else { break }
      let window: TeamServer.Window
      do {
        window = try await TeamServer.pull(
          team: membership.team, after: after, on: connection, logger: logger)
      } catch let pruned as TeamServer.HistoryPruned {
        try await startFromCompactedState(as: role, on: connection, into: &round)
        // NB: The state is made through the pruned beginning at least, so the next window
        // starts after it; only a machine that left the team meanwhile is still behind it.
        guard try await database.teamMembership()?.lastSequence ?? 0 >= pruned.through else {
          throw SyncProblem.notJoined
        }
        continue
      }
      // NB: Applying nothing still notes when the machine was last in sync.
      round.report.merge(
        try await database.applyPulledTeamChanges(
          window.changes, through: window.through, as: role))
      round.pulled += window.changes.count
      round.waitingAt = window.stoppedAt
      if window.stoppedAt != nil || window.through <= after { break }
    }
  }

  /// Has the team pass `gap` when this engine has waited for it since a round before, at least
  /// ``gapGrace`` ago; returns whether it did. A missing number is nearly always a push being
  /// committed, which fills it within milliseconds; one still missing a second later belongs to
  /// a transaction that failed, skipped it, or is held open, and the team goes on without it.
  private func passGapSeenBefore(_ gap: Int64, on connection: PostgresConnection) async throws
    -> Bool
  {
    let now = ContinuousClock.now
    guard let seen = gapSeen, seen.number == gap else {
      gapSeen = (gap, now)
      return false
    }
    guard now - seen.at >= Self.gapGrace else { return false }
    gapSeen = nil
    try await TeamServer.passGaps(team: membership.team, on: connection, logger: logger)
    return true
  }

  /// How far this machine last told the server it has pulled, in this run of the engine.
  private var reportedPlace: Int64?

  /// The missing number a pull last stopped at, and when it first did.
  private var gapSeen: (number: Int64, at: ContinuousClock.Instant)?

  // NB: Large enough that a first push of 10,000 changes takes ten round trips, small enough
  // that one batch's statement ends well within the time the team gives a number to commit.
  private static let batchSize = 1000

  /// Opens a connection to the team's server for `body`, and closes it after; every failure
  /// comes out as a ``SyncProblem``.
  private nonisolated func withServer<Result: Sendable>(
    _ body: @escaping @Sendable (PostgresConnection, ConnectionDescription) async throws -> Result
  ) async throws(SyncProblem) -> Result {
    let description: ConnectionDescription
    let password: String?
    do {
      description = try ConnectionDescription(url: membership.server, environment: environment)
      password = try description.password(environment: environment)
    } catch {
      throw .connection(error)
    }
    do {
      return try await description.withConnection(password: password, logger: logger) {
        connection in
        try await body(connection, description)
      }
    } catch {
      throw SyncProblem.from(error, for: description)
    }
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
