public import Foundation
import Models
public import PostgresNIO
public import StorageClient

/// A team's change history compacted, and its beginning pruned, by the team schema's owner
/// (`standups team prune URL`).
///
/// The server keeps every change a team makes, so without this a machine joining a team replays
/// them all, and the history only grows. A prune makes each team's *compacted state*: its
/// standups as its changes left them, made the way every machine makes them, by applying the
/// changes in the server's order to a database (here one in memory), starting from the previous
/// state. A machine joining the team starts from the state and pulls only what came after it.
///
/// The prune then removes the changes every machine has pulled. Each machine tells the server,
/// at the end of each round, how far it has pulled; the prune keeps every change after the
/// slowest member machine's place, and every change made in the last `idleDays` days, so no
/// machine that is still syncing misses one. A machine not seen for `idleDays` is not waited for:
/// when it comes back it starts from the state, its changes still waiting are pushed after it,
/// and a standup the team deleted while it had changed it is asked about
/// (`StorageClient.TeamLedger.startFrom`).
///
/// ```swift
/// let pruned = try await TeamHistory.prune(server: ConnectionDescription(url: url))
/// for team in pruned { print(team.sentences.joined(separator: "\n")) }
/// ```
public enum TeamHistory {
  /// How many days a machine may go without syncing before a prune stops waiting for it.
  public static let defaultIdleDays = 30

  /// What a prune did to one team's history.
  public struct Pruned: Equatable, Sendable {
    /// The team.
    public var team: String
    /// The number of the last change folded into the compacted state.
    public var compactedThrough: Int64
    /// How many standups the compacted state holds.
    public var standups: Int
    /// The history's beginning, now: changes numbered up to it are only in the compacted state.
    public var prunedThrough: Int64
    /// How many changes this prune removed.
    public var removed: Int
    /// How many changes the history still holds.
    public var kept: Int
    /// The slowest machine the prune waited for, when it held the prune back.
    public var waitedFor: MachinePlace?
    /// The idle days whose changes held the prune back, or `nil` when they did not.
    public var keptDays: Int?
    /// Machines of members not seen for the idle days, which the prune did not wait for.
    public var passedOver: [MachinePlace]
    /// Changes no machine of this release applies, and standups of the earlier state it would
    /// refuse, left out of the compacted state as every machine of this release leaves them out.
    /// (A newer release's schema, whose changes this release may not read, is not pruned by this
    /// one: `TeamSchema.requireCurrentVersion`.)
    public var leftOut: [TeamPullReport.Skipped]

    /// What `standups team prune` prints for the team.
    public var sentences: [String] {
      var lines = [
        "“\(team)”: compacted through change \(compactedThrough) (\(count(standups, "standup"))); "
          + "history pruned through change \(prunedThrough): \(count(removed, "change")) "
          + "removed now, \(kept) kept."
      ]
      if let keptDays {
        lines.append("  Kept: every change made in the last \(count(keptDays, "day")).")
      }
      if let waitedFor {
        lines.append(
          "  Kept for the slowest machine, \(waitedFor.name), which has pulled through change "
            + "\(waitedFor.pulledThrough).")
      }
      for machine in passedOver {
        lines.append(
          "  Not waited for: \(machine.name), last seen \(machine.lastSeen), at change "
            + "\(machine.pulledThrough); it starts from the compacted state when it comes back.")
      }
      for change in leftOut {
        lines.append("  \(change.named) is left out of the new compacted state: \(change.reason)")
      }
      return lines
    }

    private func count(_ number: Int, _ noun: String) -> String {
      Wording.counted(number, noun)
    }
  }

  /// A member's machine, and how far it has pulled its team's order.
  public struct MachinePlace: Equatable, Sendable {
    /// The role the machine syncs as.
    public var madeBy: String
    /// The machine's ID.
    public var machine: UUID
    /// The last change of the team's order it has pulled.
    public var pulledThrough: Int64
    /// When it last synced.
    public var seenAt: Date

    var name: String { "\(madeBy)'s machine \(machine.uuidString.prefix(8))" }
    var lastSeen: String { ISO8601DateFormatter().string(from: seenAt) }
  }

  /// Compacts every team's history and prunes it to what the slowest machine still needs, as
  /// the schema's owner, one team at a time; two prunes of a team run one after the other.
  ///
  /// - Parameters:
  ///   - server: The team's server, as its owner connects to it.
  ///   - idleDays: The changes of this many days are kept, and a machine not seen for this many
  ///     days is not waited for.
  ///   - logger: Where postgres-nio logs.
  /// - Throws: ``TeamSchemaError/notTheOwner(_:)`` for a role that is not the schema's owner,
  ///   ``TeamSchemaError`` for a schema of another release, ``SyncProblem`` when the server
  ///   cannot be reached or refuses the role.
  public static func prune(
    server: ConnectionDescription, idleDays: Int = defaultIdleDays, logger: Logger = .teamSync
  ) async throws -> [Pruned] {
    try await TeamSchema.administer(server, logger: logger) { connection in
      try await prune(idleDays: idleDays, as: server.user, on: connection, logger: logger)
    }
  }

  /// ``prune(server:idleDays:logger:)`` on an open connection.
  static func prune(
    idleDays: Int, as role: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> [Pruned] {
    try await TeamSchema.requireCurrentVersion(on: connection, logger: logger)
    let owner = try await connection.allRows(
      "SELECT standups_team.is_administrator()", logger: logger)
    for isOwner in try owner.decode(Bool.self) where !isOwner {
      throw TeamSchemaError.notTheOwner(role)
    }
    var pruned: [Pruned] = []
    for team in try await teams(on: connection, logger: logger) {
      pruned.append(
        try await prune(team, idleDays: idleDays, as: role, on: connection, logger: logger))
    }
    return pruned
  }

  private static func teams(on connection: PostgresConnection, logger: Logger) async throws
    -> [String]
  {
    var teams: [String] = []
    let rows = try await connection.allRows(
      "SELECT name FROM standups_team.teams ORDER BY name", logger: logger)
    for name in try rows.decode(String.self) { teams.append(name) }
    return teams
  }

  /// Compacts and prunes one team's history in one transaction, which sees the server as it was
  /// when it began.
  private static func prune(
    _ team: String, idleDays: Int, as role: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Pruned {
    // NB: A failure leaves the transaction open for the caller to close the connection, as a
    // push's does.
    try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ", logger: logger)
    // NB: Before the first read fixes the snapshot: each prune sees what the one before committed.
    try await TeamSchema.lockForTheOwner("compacted_states", on: connection, logger: logger)
    let order = try await settledOrder(of: team, on: connection, logger: logger)
    let previous = try await TeamServer.compactedState(
      team: team, on: connection, logger: logger)
    let (state, leftOut) = try await fold(
      team, from: previous, through: order.newest, as: role, on: connection, logger: logger)
    let machines = try await machines(of: team, idleDays: idleDays, on: connection, logger: logger)
    let slowest = machines.waitedFor.min { $0.pulledThrough < $1.pulledThrough }
    let recent = try await firstRecentChange(
      of: team, idleDays: idleDays, on: connection, logger: logger)
    // NB: What stays: every change the slowest machine waited for has not pulled, and every
    // change of the last idle days. A prune never moves the history's beginning back.
    var removable = order.newest
    if let slowest { removable = min(removable, slowest.pulledThrough) }
    if let recent { removable = min(removable, recent - 1) }
    let prunedThrough = max(order.prunedThrough, removable)
    try await write(state, prunedThrough: prunedThrough, team: team, on: connection, logger: logger)
    // NB: The pruned numbers are decided, as every number the state folds in is: the horizon
    // says so, so that no machine waits at the numbers the prune removes, and it needs only its
    // newest row.
    try await connection.query(
      """
      INSERT INTO standups_team.horizons (team, through)
      SELECT \(team), \(prunedThrough) WHERE \(prunedThrough) > standups_team.horizon(\(team))
      """, logger: logger)
    try await connection.query(
      """
      DELETE FROM standups_team.horizons
      WHERE team = \(team) AND through < standups_team.horizon(\(team))
      """, logger: logger)
    let removed = try await count(
      """
      WITH removed AS (
        DELETE FROM standups_team.changes WHERE team = \(team) AND sequence <= \(prunedThrough)
        RETURNING 1
      )
      SELECT count(*) FROM removed
      """, on: connection, logger: logger)
    let kept = try await count(
      "SELECT count(*) FROM standups_team.changes WHERE team = \(team)", on: connection,
      logger: logger)
    try await connection.query("COMMIT", logger: logger)
    return Pruned(
      team: team, compactedThrough: state.through, standups: state.standups.count,
      prunedThrough: prunedThrough, removed: removed, kept: kept,
      waitedFor: slowest.flatMap {
        $0.pulledThrough == prunedThrough && prunedThrough < order.newest ? $0 : nil
      },
      keptDays: recent.map { $0 - 1 == prunedThrough } == true ? idleDays : nil,
      passedOver: machines.passedOver, leftOut: leftOut)
  }

  /// Where `team`'s order is settled: the newest number through which every number is a change
  /// committed or one that will never come (at or below the horizon, or missing before it), never
  /// before the previous compacted state and never past the last change; and where its history
  /// begins. What a prune may fold in: every machine can read that far.
  private static func settledOrder(
    of team: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> (newest: Int64, prunedThrough: Int64) {
    let rows = try await connection.allRows(
      """
      WITH state AS (
        SELECT COALESCE(max(s.through), 0) AS through, COALESCE(max(s.pruned_through), 0) AS pruned
        FROM standups_team.compacted_states AS s WHERE s.team = \(team)
      ), base AS (
        SELECT GREATEST(standups_team.horizon(\(team)), state.through) AS number FROM state
      ), run AS (
        SELECT c.sequence, c.sequence - row_number() OVER (ORDER BY c.sequence) AS offset_
        FROM standups_team.changes AS c, base WHERE c.team = \(team) AND c.sequence > base.number
      )
      SELECT GREATEST(state.through, COALESCE(
          (SELECT max(run.sequence) FROM run WHERE run.offset_ = base.number),
          LEAST(base.number, COALESCE(
            (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = \(team)), 0)))),
        state.pruned
      FROM state, base
      """, logger: logger)
    var settled: (newest: Int64, prunedThrough: Int64) = (0, 0)
    for row in try rows.decode((Int64, Int64).self) { settled = row }
    return settled
  }

  private static func count(
    _ query: PostgresQuery, on connection: PostgresConnection, logger: Logger
  ) async throws -> Int {
    var count = 0
    for value in try await connection.allRows(query, logger: logger).decode(Int.self) {
      count = value
    }
    return count
  }

  /// The number of the team's first change numbered in the last `idleDays` days (the server's
  /// clock: `made_at` is the member's to write), which a prune
  /// keeps with every change after it: a machine that synced in that time, whether or not it has
  /// told the server how far (one of an earlier release had not), still finds its place. `nil`
  /// when there is none.
  private static func firstRecentChange(
    of team: String, idleDays: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> Int64? {
    let rows = try await connection.allRows(
      """
      SELECT min(sequence) FROM standups_team.changes
      WHERE team = \(team)
        AND numbered_at >= now() - make_interval(days => CAST(\(idleDays) AS integer))
      """, logger: logger)
    var first: Int64?
    for value in try rows.decode(Int64?.self) { first = value }
    return first
  }

  /// The team's state after its changes through `newest`: `previous` with the changes after it
  /// applied in order, as a machine applies them, to a database in memory.
  private static func fold(
    _ team: String, from previous: CompactedTeamState?, through newest: Int64, as role: String,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> (CompactedTeamState, leftOut: [TeamPullReport.Skipped]) {
    let database = StandupsDatabase(inMemoryHolding: [])
    _ = try await database.load()
    let folding = try await database.joinTeam(server: "", team: team, machine: UUID()).id
    var leftOut: [TeamPullReport.Skipped] = []
    if let previous {
      leftOut = try await database.startFromCompactedTeamState(previous, in: folding, as: role)
        .skipped
    }
    var after = previous?.through ?? 0
    while after < newest {
      let window = try await TeamServer.window(
        team: team, after: after, through: min(after + TeamServer.windowSize, newest),
        on: connection,
        logger: logger)
      leftOut += try await database.applyPulledTeamChanges(
        window.changes, in: folding, through: window.through, as: role
      ).skipped
      after = window.through
    }
    // NB: `newest` is never before the previous state: numbers only grow, and a state is made
    // through the newest number the prune before saw.
    let state = CompactedTeamState(
      through: newest,
      standups: Array(try await database.readStandups()),
      machinesSeen: try await database.teamMachinesSeen(in: folding))
    return (state, leftOut)
  }

  /// The machines of the team's members, as the prune treats them: those seen within
  /// `idleDays`, which it waits for, and the others, which it does not.
  private static func machines(
    of team: String, idleDays: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> (waitedFor: [MachinePlace], passedOver: [MachinePlace]) {
    // NB: A removed member's machines have left the team: no prune waits for them.
    let rows = try await connection.allRows(
      """
      SELECT m.made_by::text, m.machine, m.pulled_through, m.seen_at,
        m.seen_at >= now() - make_interval(days => CAST(\(idleDays) AS integer))
      FROM standups_team.machines AS m
      JOIN standups_team.team_members AS t ON t.team = m.team AND t.role = m.made_by
      WHERE m.team = \(team)
      ORDER BY m.pulled_through, m.made_by, m.machine
      """, logger: logger)
    var machines: (waitedFor: [MachinePlace], passedOver: [MachinePlace]) = ([], [])
    for (madeBy, machine, pulledThrough, seenAt, isRecent)
      in try rows.decode((String, UUID, Int64, Date, Bool).self)
    {
      let place = MachinePlace(
        madeBy: madeBy, machine: machine, pulledThrough: pulledThrough, seenAt: seenAt)
      if isRecent { machines.waitedFor.append(place) } else { machines.passedOver.append(place) }
    }
    return machines
  }

  /// Writes `state` as the team's compacted state, and where its history now begins.
  private static func write(
    _ state: CompactedTeamState, prunedThrough: Int64, team: String,
    on connection: PostgresConnection, logger: Logger
  ) async throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let standups = String(decoding: try encoder.encode(state.standups), as: UTF8.self)
    try await connection.query(
      """
      INSERT INTO standups_team.compacted_states (team, through, pruned_through, standups)
      VALUES (\(team), \(state.through), \(prunedThrough), CAST(\(standups) AS jsonb))
      ON CONFLICT (team) DO UPDATE SET through = EXCLUDED.through,
        pruned_through = EXCLUDED.pruned_through, standups = EXCLUDED.standups, made_at = now()
      """, logger: logger)
    let machines = Array(state.machinesSeen)
    try await connection.query(
      "DELETE FROM standups_team.compacted_machines WHERE team = \(team)", logger: logger)
    try await connection.query(
      """
      INSERT INTO standups_team.compacted_machines (team, made_by, machine, machine_sequence)
      SELECT \(team), made_by, machine, machine_sequence
      FROM unnest(
        \(machines.map(\.key.madeBy))::text[], \(machines.map(\.key.machine))::uuid[],
        \(machines.map(\.value))::bigint[]
      ) AS folded (made_by, machine, machine_sequence)
      """, logger: logger)
  }
}

extension TeamServer {
  /// The team's changes numbered after `after` and up to `through`, in order, as many as
  /// `budget` bytes allow and at least one, read in whatever transaction the connection is in;
  /// the numbers missing among them are not looked at (``Window/applicable(after:from:horizon:)``
  /// does).
  static func window(
    team: String, after: Int64, through: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    let rows = try await connection.allRows(
      """
      SELECT w.sequence, w.machine, w.machine_sequence, w.made_by, w.based_on, w.change, w.size,
        w.total
      FROM (
        SELECT \(team)::text AS team, \(after)::bigint AS after, \(through)::bigint AS through,
          \(budget)::bigint AS budget
      ) AS bounds,
        LATERAL (\(unescaped: windowRows)) AS w
      ORDER BY w.sequence
      """, logger: logger)
    var read: [WindowRow] = []
    for row
      in try rows.decode((Int64, UUID, Int64, String, Int64, String?, Int32, Int64).self)
    {
      read.append(row)
    }
    return Window(read, through: through)
  }
}
