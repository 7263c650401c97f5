import Foundation
import Models
import PostgresNIO
import StorageClient

/// The statements a member's machine runs on the team's server: checking it may sync, pushing
/// its waiting changes, pulling the team's. Every value is a bound parameter.
enum TeamServer {
  /// The channel the server announces each commit of changes on.
  static let channel = "standups_team_changes"

  /// Throws unless this release can sync with the schema (its own, or a newer but compatible
  /// one) and the connected role is a member of `team`.
  static func checkAccess(
    team: String, role: String, on connection: PostgresConnection, logger: Logger
  ) async throws {
    // NB: A role the owner never added has no use of the schema; asked, PostgreSQL would only
    // say "permission denied".
    let usable = try await connection.query(
      """
      SELECT CASE WHEN to_regnamespace('standups_team') IS NULL THEN NULL
        ELSE has_schema_privilege('standups_team', 'USAGE') END
      """, logger: logger)
    var mayUse: Bool?
    for try await value in usable.decode(Bool?.self) { mayUse = value }
    guard let mayUse else { throw SyncProblem.schema(.missingSchema) }
    guard mayUse else { throw SyncProblem.notAMember(role: role, team: team) }
    do {
      try await TeamSchema.requireSyncable(on: connection, logger: logger)
    } catch let error as TeamSchemaError {
      throw SyncProblem.schema(error)
    }
    // NB: Row-level security shows a role only the teams it is a member of.
    let rows = try await connection.query(
      "SELECT count(*) FROM standups_team.teams WHERE name = \(team)", logger: logger)
    var count = 0
    for try await value in rows.decode(Int.self) { count = value }
    guard count == 1 else { throw SyncProblem.notAMember(role: role, team: team) }
  }

  /// Pushes `changes` in their order, in one transaction: all of them, or, when it fails,
  /// none. Changes the server has already (a push cut short after its commit) are left out.
  ///
  /// A failure leaves the transaction open for the caller to close the connection, which
  /// ends it: every caller does (the engine's rounds run inside `withServer`).
  static func push(
    _ changes: [WaitingTeamChange], team: String, machine: MemberMachine,
    on connection: PostgresConnection, logger: Logger
  ) async throws {
    // NB: No ROLLBACK: one sent on a connection the server ended is never answered. Guarded by
    // TeamCommandLineTests.theServerStoppedInTheMiddleOfAPushLosesNothingAndStoresNothingTwice.
    try await connection.query("BEGIN", logger: logger)
    let alreadyThere = try await newestChange(
      of: machine, team: team, on: connection, logger: logger)
    for change in changes where change.sequence > alreadyThere {
      try await connection.query(
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        VALUES (\(team), \(machine.machine), \(change.sequence), \(change.basedOn),
                CAST(\(change.change) AS jsonb))
        """, logger: logger)
    }
    try await connection.query("COMMIT", logger: logger)
  }

  /// The number, on `machine`, of the newest of its changes the server has, in its history or
  /// folded into its compacted state; 0 when none. A machine pushes its changes in the order it
  /// numbered them, so the server has all those before it too.
  static func newestChange(
    of machine: MemberMachine, team: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> Int64 {
    try await newestChanges(of: [machine], team: team, on: connection, logger: logger)[
      machine, default: 0]
  }

  /// The number, on each of `machines`, of the newest of its changes the server has, in its
  /// history or folded into its compacted state; a machine it has none of is left out. One
  /// statement however many. A machine is a role's: rows another member writes under its ID
  /// are that member's.
  static func newestChanges(
    of machines: [MemberMachine], team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> [MemberMachine: Int64] {
    guard !machines.isEmpty else { return [:] }
    let rows = try await connection.query(
      """
      SELECT asked.made_by::text, asked.machine, GREATEST(
        (SELECT max(c.machine_sequence) FROM standups_team.changes AS c
         WHERE c.team = \(team) AND c.made_by = asked.made_by AND c.machine = asked.machine),
        (SELECT m.machine_sequence FROM standups_team.compacted_machines AS m
         WHERE m.team = \(team) AND m.made_by = asked.made_by AND m.machine = asked.machine),
        0)
      FROM unnest(\(machines.map(\.madeBy))::name[], \(machines.map(\.machine))::uuid[])
        AS asked (made_by, machine)
      """, logger: logger)
    var known: [MemberMachine: Int64] = [:]
    for try await (madeBy, machine, newest) in rows.decode((String, UUID, Int64).self)
    where newest > 0 {
      known[MemberMachine(madeBy: madeBy, machine: machine)] = newest
    }
    return known
  }

  /// Where the team's order stands: its newest change, where its history begins, and who made
  /// the change at the place a machine last applied.
  struct Order {
    /// The number of the team's newest change. Every change numbered up to it is committed and
    /// seen by the statements that follow: a number is given under the team's row lock and
    /// committed with it (`next_sequence`).
    var newest: Int64
    /// The history's pruned beginning: changes numbered up to it are only in the compacted
    /// state (`standups team prune`); 0 when none were pruned.
    var prunedThrough: Int64 = 0
    /// The number the compacted state was made through; 0 when there is none.
    var compactedThrough: Int64 = 0
    /// The machine that made the change at the place asked about, and its number there; `nil`
    /// when the server has no change there.
    var atPlace: (machine: MemberMachine, machineSequence: Int64)?
  }

  /// Where `team`'s order stands, and who made its change numbered `place`: one statement.
  static func order(
    team: String, at place: Int64, on connection: PostgresConnection, logger: Logger
  ) async throws -> Order {
    let rows = try await connection.query(
      """
      SELECT t.last_sequence, COALESCE(s.pruned_through, 0), COALESCE(s.through, 0),
        c.made_by::text, c.machine, c.machine_sequence
      FROM standups_team.teams AS t
      LEFT JOIN standups_team.compacted_states AS s ON s.team = t.name
      LEFT JOIN standups_team.changes AS c ON c.team = t.name AND c.sequence = \(place)
      WHERE t.name = \(team)
      """, logger: logger)
    var order = Order(newest: 0)
    for try await (newest, prunedThrough, compactedThrough, madeBy, machine, machineSequence)
      in rows.decode((Int64, Int64, Int64, String?, UUID?, Int64?).self)
    {
      order.newest = newest
      order.prunedThrough = prunedThrough
      order.compactedThrough = compactedThrough
      if let madeBy, let machine, let machineSequence {
        order.atPlace = (MemberMachine(madeBy: madeBy, machine: machine), machineSequence)
      }
    }
    return order
  }

  /// Which of `changes` the server has, in its history or folded into its compacted state, in
  /// one statement however many.
  static func kept(
    _ changes: [TeamChangeOrigin], team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Set<TeamChangeOrigin> {
    guard !changes.isEmpty else { return [] }
    let rows = try await connection.query(
      """
      SELECT asked.made_by, asked.machine, asked.machine_sequence
      FROM unnest(
        \(changes.map(\.machine.madeBy))::text[], \(changes.map(\.machine.machine))::uuid[],
        \(changes.map(\.machineSequence))::bigint[]
      ) AS asked (made_by, machine, machine_sequence)
      WHERE EXISTS (
        SELECT 1 FROM standups_team.changes AS c
        WHERE c.team = \(team) AND c.made_by::text = asked.made_by AND c.machine = asked.machine
          AND c.machine_sequence = asked.machine_sequence
      ) OR EXISTS (
        SELECT 1 FROM standups_team.compacted_machines AS m
        WHERE m.team = \(team) AND m.made_by::text = asked.made_by AND m.machine = asked.machine
          AND m.machine_sequence >= asked.machine_sequence
      )
      """, logger: logger)
    var kept = Set<TeamChangeOrigin>()
    for try await (madeBy, machine, machineSequence) in rows.decode((String, UUID, Int64).self) {
      kept.insert(
        TeamChangeOrigin(
          machine: MemberMachine(madeBy: madeBy, machine: machine),
          machineSequence: machineSequence))
    }
    return kept
  }

  /// The most bytes of JSON one change may hold: a larger one (a member's hand-written row) is
  /// not read, and every machine skips it. A standup shared with years of meetings is far
  /// smaller.
  static let largestChange = 8 << 20

  /// About the most bytes of changes one pull reads: a window whose changes hold more is cut
  /// short after the change that passes it, and the next pull goes on from there.
  static let pullBudget = 32 << 20

  /// What a pull read: the changes, and the number it read up to.
  struct Window {
    var changes: [PulledTeamChange]
    /// `through`, or the last change read when the window was cut short by ``pullBudget``.
    var through: Int64
  }

  /// The team's changes numbered after `after` and up to `through`, in order, as many as
  /// `budget` bytes allow and at least one: ``window(team:after:through:budget:on:logger:)``,
  /// read with where the history begins in one snapshot of the server's.
  ///
  /// - Throws: ``HistoryPruned`` when the owner has pruned changes numbered after `after`: the
  ///   window would miss them, and the machine must start again from the compacted state.
  static func pull(
    team: String, after: Int64, through: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    // NB: A failure leaves the transaction open for the caller to close the connection, as a
    // push's does.
    try await connection.query(
      "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
    let rows = try await connection.query(
      """
      SELECT pruned_through FROM standups_team.compacted_states WHERE team = \(team)
      """, logger: logger)
    var prunedThrough: Int64 = 0
    for try await value in rows.decode(Int64.self) { prunedThrough = value }
    guard prunedThrough <= after else {
      try await connection.query("COMMIT", logger: logger)
      throw HistoryPruned(through: prunedThrough)
    }
    let window = try await window(
      team: team, after: after, through: through, budget: budget, on: connection,
      logger: logger)
    try await connection.query("COMMIT", logger: logger)
    return window
  }

  /// The owner pruned the history through `through` under a machine that had not pulled that
  /// far: what it lacks is only in the compacted state now.
  struct HistoryPruned: Error {
    var through: Int64
  }

  /// The team's changes numbered after `after` and up to `through`, in order, as many as
  /// `budget` bytes allow and at least one, read in whatever transaction the connection is in.
  static func window(
    team: String, after: Int64, through: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    // NB: `OFFSET 0` keeps the lateral subquery from being merged away, so each change is
    // turned into text once, however often its size is looked at.
    let rows = try await connection.query(
      """
      SELECT sequence, machine, machine_sequence, made_by, based_on,
        CASE WHEN size <= \(largestChange) THEN text END, size, total
      FROM (
        SELECT sequence, machine, machine_sequence, made_by, based_on, text, size,
          sum(CASE WHEN size <= \(largestChange) THEN size ELSE 0 END)
            OVER (ORDER BY sequence) AS running,
          count(*) OVER () AS total
        FROM (
          SELECT c.sequence, c.machine, c.machine_sequence, c.made_by::text AS made_by,
            c.based_on, t.text, octet_length(t.text) AS size
          FROM standups_team.changes AS c,
            LATERAL (SELECT c.change::text AS text OFFSET 0) AS t
          WHERE c.team = \(team) AND c.sequence > \(after) AND c.sequence <= \(through)
        ) AS sized
      ) AS counted
      WHERE running - (CASE WHEN size <= \(largestChange) THEN size ELSE 0 END) < \(budget)
      ORDER BY sequence
      """, logger: logger)
    var window = Window(changes: [], through: through)
    var total: Int64 = 0
    for try await (sequence, machine, machineSequence, madeBy, basedOn, change, size, count)
      in rows.decode((Int64, UUID, Int64, String, Int64, String?, Int32, Int64).self)
    {
      total = count
      window.changes.append(
        PulledTeamChange(
          sequence: sequence, machine: machine, machineSequence: machineSequence, madeBy: madeBy,
          basedOn: basedOn, change: change ?? "", tooLarge: change == nil ? Int(size) : nil))
    }
    if let last = window.changes.last, window.changes.count < total {
      window.through = last.sequence
    }
    return window
  }

  /// The team's compacted state: its standups as its changes through a number left them, and
  /// the last change of each machine folded in. Read in one statement, so a prune committing
  /// meanwhile is seen whole or not at all; `nil` when the team's history was never compacted.
  static func compactedState(
    team: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> CompactedTeamState? {
    let rows = try await connection.query(
      """
      SELECT s.through, s.standups::text, m.roles, m.machines, m.sequences
      FROM standups_team.compacted_states AS s,
        LATERAL (
          SELECT COALESCE(array_agg(made_by::text), '{}'), COALESCE(array_agg(machine), '{}'),
            COALESCE(array_agg(machine_sequence), '{}')
          FROM standups_team.compacted_machines WHERE team = s.team
        ) AS m (roles, machines, sequences)
      WHERE s.team = \(team)
      """, logger: logger)
    var state: CompactedTeamState?
    for try await (through, standups, roles, machines, sequences)
      in rows.decode((Int64, String, [String], [UUID], [Int64]).self)
    {
      var seen: [MemberMachine: Int64] = [:]
      for (role, (machine, sequence)) in zip(roles, zip(machines, sequences)) {
        seen[MemberMachine(madeBy: role, machine: machine)] = sequence
      }
      let decoded: [Standup]
      do {
        decoded = try JSONDecoder().decode([Standup].self, from: Data(standups.utf8))
      } catch {
        throw TeamSchemaError.unreadableCompactedState(reason: "\(error)")
      }
      state = CompactedTeamState(through: through, standups: decoded, machinesSeen: seen)
    }
    return state
  }

  /// Tells the server how far this machine has pulled the team's order, so that a prune keeps
  /// every change it still needs.
  static func reportPulled(
    through sequence: Int64, machine: UUID, team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws {
    try await connection.query(
      """
      INSERT INTO standups_team.machines (team, machine, pulled_through)
      VALUES (\(team), \(machine), \(sequence))
      ON CONFLICT (team, made_by, machine) DO UPDATE SET pulled_through = EXCLUDED.pulled_through
      """, logger: logger)
  }
}
