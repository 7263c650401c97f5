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
    let usable = try await connection.allRows(
      """
      SELECT CASE WHEN to_regnamespace('standups_team') IS NULL THEN NULL
        ELSE has_schema_privilege('standups_team', 'USAGE') END
      """, logger: logger)
    var mayUse: Bool?
    for value in try usable.decode(Bool?.self) { mayUse = value }
    guard let mayUse else { throw SyncProblem.schema(.missingSchema) }
    guard mayUse else { throw SyncProblem.notAMember(role: role, team: team) }
    // NB: The version first, in statements of its own: the membership's statement reads columns
    // an older schema lacks (`MixedReleaseTests`), where it would fail without saying why.
    try await TeamSchema.requireSyncable(on: connection, logger: logger)
    return try await requireMembership(team: team, role: role, on: connection, logger: logger)
  }

  /// Throws unless the connected role is still a member of `team` and this release can still
  /// sync with the schema, in one statement: what a round checks first, the schema's presence
  /// and the role's use of it having been checked when the connection was taken
  /// (``checkAccess(team:role:on:logger:)``). A newer release's upgrade made meanwhile stops the
  /// round before it pushes or pulls. Returns the team's channel.
  @discardableResult
  static func requireMembership(
    team: String, role: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> String {
    // NB: Row-level security shows a role only the teams it is a member of.
    let rows = try await connection.allRows(
      """
      SELECT \(unescaped: TeamSchema.versionColumns), t.channel
      FROM standups_team.schema_version AS v
      LEFT JOIN standups_team.teams AS t ON t.name = \(team)
      """, logger: logger)
    var found: (version: Int, compatibleFrom: Int, channel: String?)?
    for row in try rows.decode((Int, Int, String?).self) { found = row }
    guard let found else { throw SyncProblem.schema(.missingSchema) }
    do {
      try TeamSchema.requireSyncable(version: found.version, compatibleFrom: found.compatibleFrom)
    } catch {
      throw SyncProblem.schema(error)
    }
    guard let channel = found.channel else { throw SyncProblem.notAMember(role: role, team: team) }
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
          \(changes.map(\.machineSequence))::bigint[], \(changes.map(\.basedOn))::bigint[],
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
    do {
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
    } catch {
      // NB: Other teams' engines may go on on this connection (`ServerLink`): whatever ended the
      // statement, the session reads committed again.
      _ = try? await connection.query("RESET default_transaction_isolation", logger: logger)
      throw error
    }
    try await connection.query("RESET default_transaction_isolation", logger: logger)
  }

  /// Where the team's order stands: its newest change, where its history begins, and who made
  /// the change at the place a machine last applied.
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
  }

  /// The number of the newest change of the team in the row `t` of `standups_team.teams`, in
  /// its history or its compacted state (0 when it has neither), as SQL: what
  /// ``order(team:at:role:on:logger:)`` reads, and what an engine's look compares with its place.
  static let newestNumber = """
    GREATEST(
      (SELECT max(c.sequence) FROM standups_team.changes AS c WHERE c.team = t.name),
      (SELECT s.through FROM standups_team.compacted_states AS s WHERE s.team = t.name), 0)
    """

  /// Where `team`'s order stands, and who made its change numbered `place`: one statement.
  ///
  /// - Throws: ``SyncProblem/notAMember(role:team:)`` when the role may not see the team (it was
  ///   removed from it).
  static func order(
    team: String, at place: Int64, role: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Order {
    let rows = try await connection.allRows(
      """
      SELECT \(unescaped: newestNumber), COALESCE(s.pruned_through, 0), COALESCE(s.through, 0),
        p.made_by::text, p.machine, p.machine_sequence
      FROM standups_team.teams AS t
      LEFT JOIN standups_team.compacted_states AS s ON s.team = t.name
      LEFT JOIN standups_team.changes AS p ON p.team = t.name AND p.sequence = \(place)
      WHERE t.name = \(team)
      """, logger: logger)
    var order: Order?
    for (newest, pruned, compacted, madeBy, machine, machineSequence)
      in try rows.decode((Int64, Int64, Int64, String?, UUID?, Int64?).self)
    {
      var found = Order(newest: newest, prunedThrough: pruned, compactedThrough: compacted)
      if let madeBy, let machine, let machineSequence {
        found.atPlace = (MemberMachine(madeBy: madeBy, machine: machine), machineSequence)
      }
      order = found
    }
    // NB: Row-level security shows a role only the teams it is a member of.
    guard let order else { throw SyncProblem.notAMember(role: role, team: team) }
    return order
  }

  /// Tells the server this machine's place, how far it has pulled the team's order (the
  /// `machines` table's `pulled_through`), so that a prune keeps every change it still needs.
  static func reportPlace(
    _ place: Int64, machine: UUID, team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws {
    try await connection.query(
      """
      INSERT INTO standups_team.machines (team, machine, pulled_through)
      VALUES (\(team), \(machine), \(place))
      ON CONFLICT (team, made_by, machine) DO UPDATE SET pulled_through = EXCLUDED.pulled_through
      """, logger: logger)
  }
}
