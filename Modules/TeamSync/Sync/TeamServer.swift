import Foundation
import Models
import PostgresNIO
import StorageClient

/// The statements a member's machine runs on the team's server: checking it may sync, pushing
/// its waiting changes, pulling the team's. Every value is a bound parameter.
enum TeamServer {
  /// Throws unless this release can sync with the schema (its own, or a newer but compatible
  /// one) and the connected role is a member of `team`; returns the channel the server announces
  /// the team's commits on, which only its members can read.
  @discardableResult
  static func checkAccess(
    team: String, role: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> String {
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
      "SELECT channel FROM standups_team.teams WHERE name = \(team)", logger: logger)
    var channel: String?
    for try await value in rows.decode(String.self) { channel = value }
    guard let channel else { throw SyncProblem.notAMember(role: role, team: team) }
    return channel
  }

  /// Pushes `changes` in their order, in one statement: all of them, or, when it fails, none.
  /// Changes the server has already (a push cut short after its commit, or made at the same
  /// time by another process of this machine's) are left out: those in its history by their
  /// number on this machine, which the server keeps unique; those folded into its compacted
  /// state by the state's record of this machine.
  ///
  /// NB: The statement reads no change of the history: in a serializable transaction, reading
  /// the index that pushes write would make every two pushes at once look like a conflict, and
  /// one of them start again. A change it leaves out uses up a number, which the team passes.
  ///
  /// The statement is a serializable transaction of its own (``serializable(on:logger:_:)``):
  /// the server numbers each change as it inserts it, and numbers only in serializable
  /// transactions, so that a transaction holding a number the team has gone past can never
  /// commit (`pass_gaps`). One statement, so that no round trip falls inside it.
  static func push(
    _ changes: [WaitingTeamChange], team: String, machine: MemberMachine,
    on connection: PostgresConnection, logger: Logger
  ) async throws {
    guard !changes.isEmpty else { return }
    try await serializable(on: connection, logger: logger) {
      try await connection.query(
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        SELECT \(team), \(machine.machine), p.machine_sequence, p.based_on,
          CAST(p.change AS jsonb)
        FROM unnest(
          \(changes.map(\.sequence))::bigint[], \(changes.map(\.basedOn))::bigint[],
          \(changes.map(\.change))::text[]
        ) AS p (machine_sequence, based_on, change)
        WHERE p.machine_sequence > COALESCE(
          (SELECT m.machine_sequence FROM standups_team.compacted_machines AS m
           WHERE m.team = \(team) AND m.made_by = current_user
             AND m.machine = \(machine.machine)),
          0)
        ORDER BY p.machine_sequence
        ON CONFLICT ON CONSTRAINT changes_machine_numbers DO NOTHING
        """, logger: logger)
    }
  }

  /// Moves the team's horizon past the numbers missing for longer than a second, when there are
  /// any: a pull stopped at one goes on past it (`pass_gaps`). A transaction still holding such
  /// a number can then never commit.
  static func passGaps(team: String, on connection: PostgresConnection, logger: Logger)
    async throws
  {
    try await serializable(on: connection, logger: logger) {
      try await connection.query("SELECT standups_team.pass_gaps(\(team))", logger: logger)
    }
  }

  /// Runs `statement`, one statement, as a serializable transaction of its own, and runs it
  /// again, after a wait that grows, while serializable isolation aborts it (40001): it does
  /// when it met a transaction that moved the horizon, or another push of this machine's, and
  /// succeeds once that one has committed. Gives up after about three seconds.
  ///
  /// NB: The session's default, set around the statement, not `BEGIN … COMMIT`: the transaction
  /// then lasts only while the server runs the statement, so a slow link never holds a number
  /// long enough for the team to pass it. The other statements stay read committed.
  static func serializable(
    on connection: PostgresConnection, logger: Logger,
    _ statement: () async throws -> Void
  ) async throws {
    try await connection.query(
      "SET default_transaction_isolation = 'serializable'", logger: logger)
    var wait = Duration.milliseconds(10)
    while true {
      do {
        try await statement()
        break
      } catch let error as PSQLError
        where error.serverInfo?[.sqlState] == "40001" && wait < .seconds(2)
      {
        try await Task.sleep(for: wait * Double.random(in: 0.5...1.5))
        wait *= 2
      }
    }
    try await connection.query("RESET default_transaction_isolation", logger: logger)
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

  /// Where the team's order stands: its newest change, where its history begins, who made the
  /// change at the place a machine last applied, and the channel its commits are announced on.
  struct Order {
    /// The number of the team's newest change committed. Numbers may commit out of order, so
    /// one below it may still come (or never): a pull reads up to it as far as the numbers run
    /// without a gap (``pull(team:after:budget:on:logger:)``).
    var newest: Int64
    /// The history's pruned beginning: changes numbered up to it are only in the compacted
    /// state (`standups team prune`); 0 when none were pruned.
    var prunedThrough: Int64 = 0
    /// The number the compacted state was made through; 0 when there is none.
    var compactedThrough: Int64 = 0
    /// The machine that made the change at the place asked about, and its number there; `nil`
    /// when the server has no change there.
    var atPlace: (machine: MemberMachine, machineSequence: Int64)?
    /// The channel the team's commits are announced on: it changes when a member is removed.
    var channel = ""
  }

  /// Where `team`'s order stands, and who made its change numbered `place`: one statement.
  ///
  /// - Throws: ``SyncProblem/notAMember(role:team:)`` when the role may not see the team (it was
  ///   removed from it).
  static func order(
    team: String, at place: Int64, role: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Order {
    let rows = try await connection.query(
      """
      SELECT GREATEST(
          (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = t.name),
          s.through, 0),
        COALESCE(s.pruned_through, 0), COALESCE(s.through, 0),
        p.made_by::text, p.machine, p.machine_sequence, t.channel
      FROM standups_team.teams AS t
      LEFT JOIN standups_team.compacted_states AS s ON s.team = t.name
      LEFT JOIN standups_team.changes AS p ON p.team = t.name AND p.sequence = \(place)
      WHERE t.name = \(team)
      """, logger: logger)
    var order: Order?
    for try await (newest, pruned, compacted, madeBy, machine, machineSequence, channel)
      in rows.decode((Int64, Int64, Int64, String?, UUID?, Int64?, String).self)
    {
      var found = Order(
        newest: newest, prunedThrough: pruned, compactedThrough: compacted, channel: channel)
      if let madeBy, let machine, let machineSequence {
        found.atPlace = (MemberMachine(madeBy: madeBy, machine: machine), machineSequence)
      }
      order = found
    }
    // NB: Row-level security shows a role only the teams it is a member of.
    guard let order else { throw SyncProblem.notAMember(role: role, team: team) }
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

  /// What a pull read: the changes a machine may apply, in order, and how far they go.
  struct Window {
    var changes: [PulledTeamChange]
    /// The number of the last change in `changes`, or the place the pull started from when there
    /// is none: where the machine is once it has applied them.
    var through: Int64
    /// The missing number the pull stopped at, when it stopped at one: a change that may still
    /// come (a push being committed), or, once the team passes it, never will.
    var stoppedAt: Int64? = nil
  }

  /// The team's changes after `after`, as far as their numbers run without a gap the team has
  /// not passed, for at most a window of ``windowSize`` numbers and `budget` bytes: read in one
  /// statement, so in one snapshot of the server's, with where the history begins and the
  /// team's horizon.
  ///
  /// The server numbers changes as they are inserted, so numbers may commit out of order: a
  /// missing number may be a push still being committed. The pull stops there; a number at or
  /// below the team's horizon will never come, and the pull goes past it (`pass_gaps`). So a
  /// machine never applies a change while one numbered before it may still come, and never
  /// misses one below its place.
  ///
  /// NB: One statement, as a push is, rather than a transaction of several: no round trip falls
  /// inside it, so a machine that is slow between two statements never holds a snapshot open,
  /// nor has the server end its session for idling in a transaction.
  ///
  /// - Throws: ``HistoryPruned`` when the owner has pruned changes numbered after `after`: the
  ///   window would miss them, and the machine must start again from the compacted state.
  static func pull(
    team: String, after: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    // NB: `start` is the number before the next change, so a run of passed numbers costs one
    // window; bounds are empty unless the next change may be applied (the header row alone).
    let rows = try await connection.query(
      """
      SELECT bounds.pruned_through, bounds.horizon, bounds.next, bounds.after,
        w.sequence, w.machine, w.machine_sequence, w.made_by, w.based_on, w.change, w.size,
        w.total
      FROM (
        SELECT h.pruned_through, h.horizon, h.next, \(team)::text AS team, h.start AS after,
          CASE WHEN h.pruned_through <= \(after)
            AND (h.next = \(after) + 1 OR h.next - 1 <= h.horizon)
          THEN h.start + \(windowSize) ELSE h.start END AS through,
          \(budget)::bigint AS budget
        FROM (
          SELECT header.*, GREATEST(\(after), header.next - 1) AS start
          FROM (
            SELECT
              COALESCE((SELECT s.pruned_through FROM standups_team.compacted_states AS s
                WHERE s.team = \(team)), 0) AS pruned_through,
              standups_team.horizon(\(team)) AS horizon,
              (SELECT min(c.sequence) FROM standups_team.changes AS c
                WHERE c.team = \(team) AND c.sequence > \(after)) AS next
          ) AS header
        ) AS h
      ) AS bounds
      LEFT JOIN LATERAL (\(unescaped: windowRows)) AS w ON true
      ORDER BY w.sequence
      """, logger: logger)
    // NB: The outer join gives at least one row; none reads as a history with nothing new.
    var header: (prunedThrough: Int64, horizon: Int64, next: Int64?, start: Int64) =
      (0, 0, nil, after)
    var read: [WindowRow] = []
    for try await row
      in rows.decode(
        (
          Int64, Int64, Int64?, Int64?, Int64?, UUID?, Int64?, String?, Int64?, String?, Int32?,
          Int64?
        ).self)
    {
      header = (row.0, row.1, row.2, row.3 ?? after)
      if let sequence = row.4, let machine = row.5, let machineSequence = row.6,
        let madeBy = row.7, let basedOn = row.8, let size = row.10, let total = row.11
      {
        read.append((sequence, machine, machineSequence, madeBy, basedOn, row.9, size, total))
      }
    }
    guard header.prunedThrough <= after else { throw HistoryPruned(through: header.prunedThrough) }
    guard let next = header.next, next == after + 1 || next - 1 <= header.horizon else {
      return Window(changes: [], through: after, stoppedAt: header.next.map { _ in after + 1 })
    }
    return Window(read, through: header.start + windowSize)
      .applicable(after: after, from: header.start, horizon: header.horizon)
  }

  /// The most numbers one pull reads: a first pull of 10,000 changes takes ten round trips, and
  /// each statement stays short.
  static let windowSize: Int64 = 1000

  /// The owner pruned the history through `through` under a machine that had not pulled that
  /// far: what it lacks is only in the compacted state now.
  struct HistoryPruned: Error {
    var through: Int64
  }

  /// The team's changes numbered after `after` and up to `through`, in order, as many as
  /// `budget` bytes allow and at least one, read in whatever transaction the connection is in;
  /// the numbers missing among them are not looked at (``Window/applicable(after:from:horizon:)``
  /// does).
  static func window(
    team: String, after: Int64, through: Int64, budget: Int = pullBudget,
    on connection: PostgresConnection, logger: Logger
  ) async throws -> Window {
    let rows = try await connection.query(
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
    for try await row
      in rows.decode((Int64, UUID, Int64, String, Int64, String?, Int32, Int64).self)
    {
      read.append(row)
    }
    return Window(read, through: through)
  }

  /// A change as ``windowRows`` reads it: its number, machine, number on that machine, member,
  /// base, text (`nil` when larger than ``largestChange``), size, and how many changes the
  /// window's bounds hold.
  fileprivate typealias WindowRow = (
    sequence: Int64, machine: UUID, machineSequence: Int64, madeBy: String, basedOn: Int64,
    change: String?, size: Int32, total: Int64
  )

  /// The rows of a window, for a lateral join on a relation `bounds` with columns `team`,
  /// `after`, `through` and `budget`: the team's changes numbered after `after` and up to
  /// `through`, in order, as many as `budget` bytes allow and at least one. One text for a
  /// window read alone and a pull's; it binds nothing.
  ///
  /// NB: `OFFSET 0` keeps the lateral subquery from being merged away, so each change is
  /// turned into text once, however often its size is looked at.
  private static let windowRows = """
    SELECT sequence, machine, machine_sequence, made_by, based_on,
      CASE WHEN size <= \(largestChange) THEN text END AS change, size, total
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
        WHERE c.team = bounds.team AND c.sequence > bounds.after
          AND c.sequence <= bounds.through
      ) AS sized
    ) AS counted
    WHERE running - (CASE WHEN size <= \(largestChange) THEN size ELSE 0 END) < bounds.budget
    """

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

extension TeamServer.Window {
  /// The window `rows` make, read up to `through`: up to the last row read instead when the
  /// budget left changes out.
  fileprivate init(_ rows: [TeamServer.WindowRow], through: Int64) {
    self.init(
      changes: rows.map { row in
        PulledTeamChange(
          sequence: row.sequence, machine: row.machine, machineSequence: row.machineSequence,
          madeBy: row.madeBy, basedOn: row.basedOn, change: row.change ?? "",
          tooLarge: row.change == nil ? Int(row.size) : nil)
      },
      through: through)
    if let last = changes.last, let total = rows.first?.total, changes.count < total {
      self.through = last.sequence
    }
  }

  /// The changes of this window, read from `start`, that a machine at `after` may apply: each
  /// the next number, or one whose missing numbers before it are all at or below the team's
  /// `horizon`, which will never come. Stops at the first missing number above it.
  func applicable(after: Int64, from start: Int64, horizon: Int64) -> Self {
    var place = start
    var taken: [PulledTeamChange] = []
    for change in changes {
      guard change.sequence == place + 1 || change.sequence - 1 <= horizon else {
        return Self(changes: taken, through: taken.last?.sequence ?? after, stoppedAt: place + 1)
      }
      taken.append(change)
      place = change.sequence
    }
    return Self(changes: taken, through: taken.last?.sequence ?? after)
  }
}
