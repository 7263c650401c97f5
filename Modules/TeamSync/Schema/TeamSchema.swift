public import PostgresNIO

/// The tables a team's standups live in on the team's PostgreSQL server, and who may use them.
///
/// Everything is in the schema `standups_team`: the teams, their members (PostgreSQL login
/// roles), and the change log: each change to a shared standup as JSON, numbered from its team's
/// sequence as it is inserted (`sequence`), the one order every member's machine applies. No
/// member's transaction can hold another's push: numbers are taken without a lock, may commit
/// out of order, and a number left missing for a second is passed by the team's horizon, after
/// which the transaction holding it can never commit (serializable isolation; `pass_gaps`).
///
/// PostgreSQL itself keeps each team's standups to the team: every table has row-level security,
/// enabled and forced (so that not even the tables' owner is exempt), and a role sees and changes
/// only the rows of teams it belongs to, also through `psql` with hand-written SQL. Membership is
/// read from `team_members` with `current_user`; a role in no team gets no rows and can insert
/// none. The schema's owner administers teams and members, and sees no standups unless a member.
///
/// ```swift
/// try await server.withConnection(password: password, logger: logger) { connection in
///   try await TeamSchema.setUp(on: connection, logger: logger)
///   try await TeamSchema.addMembers(team: "platform", roles: ["alice", "bob"], on: connection,
///                                   logger: logger)
/// }
/// ```
public enum TeamSchema {
  /// The version of the schema this release creates and uses.
  public static var currentVersion: Int { migrations.count }

  /// The oldest schema version a release may know and still sync with the schema this release
  /// makes; `setUp` records it on the server.
  ///
  /// A release raises it to its own version when its migration changes what older releases
  /// read or write (drops or renames a column of theirs, adds a rule their rows would break);
  /// one that only adds (a column with a default, a table) leaves it, and older releases keep
  /// syncing what they understand. This release's schema numbers changes from a sequence, so
  /// that numbers may commit out of order and some never come: a release before 4 takes every
  /// number up to the newest for committed.
  public static let compatibleFrom = 4

  /// Creates the team schema, or upgrades it to ``currentVersion``, in one transaction.
  ///
  /// Running it again changes nothing. Two runs at once wait for each other, so neither sees
  /// the other's half-made schema: on the version table (`lockForTheOwner`), or,
  /// before there is a schema (and so a member), on an advisory lock.
  ///
  /// - Throws: ``TeamSchemaError/newerSchema(found:supported:)`` when a newer release made the
  ///   schema; postgres-nio's errors when the server refuses (not the database's owner, say).
  public static func setUp(on connection: PostgresConnection, logger: Logger) async throws {
    try await transaction(on: connection, logger: logger) {
      let rows = try await connection.allRows(
        "SELECT to_regclass('standups_team.schema_version') IS NOT NULL", logger: logger)
      var exists = false
      for found in try rows.decode(Bool.self) { exists = found }
      if exists {
        try await lockForTheOwner("schema_version", on: connection, logger: logger)
      } else {
        _ = try await connection.allRows(
          "SELECT pg_advisory_xact_lock(\(setUpLock))", logger: logger)
      }
      let found = try await version(on: connection, logger: logger)
      guard found <= currentVersion else {
        throw TeamSchemaError.newerSchema(found: found, supported: currentVersion)
      }
      for migration in migrations[found...] {
        for statement in migration {
          try await connection.query(statement, logger: logger)
        }
      }
      if found < currentVersion {
        try await connection.query(
          """
          INSERT INTO standups_team.schema_version (version, compatible_from)
          VALUES (\(currentVersion), \(compatibleFrom))
          ON CONFLICT (singleton) DO UPDATE
          SET version = EXCLUDED.version, compatible_from = EXCLUDED.compatible_from
          """,
          logger: logger
        )
      }
    }
  }

  /// Makes existing login roles members of `team`, creating the team if it is new; returns the
  /// roles whose connections it could not limit.
  ///
  /// Each role is granted what a member needs (the schema, reading the teams and members,
  /// reading and adding changes); row-level security keeps it to its teams. A role with no
  /// connection limit gets ``memberConnectionLimit``, so that one member cannot take every
  /// connection the server has: where the owner may not set it (it needs `CREATEROLE`), the
  /// role is returned, for the administrator to set. Adding a member again changes nothing. All
  /// or none: one transaction.
  ///
  /// ```swift
  /// try await TeamSchema.addMembers(team: "platform", roles: ["alice"], on: connection,
  ///                                 logger: logger)
  /// ```
  ///
  /// - Throws: ``TeamSchemaError`` when the team name is empty, a role does not exist or
  ///   cannot log in, or the schema is missing or another release's.
  @discardableResult
  public static func addMembers(
    team: String,
    roles: [String],
    on connection: PostgresConnection,
    logger: Logger
  ) async throws -> [String] {
    guard !team.isEmpty else { throw TeamSchemaError.emptyTeamName }
    var unlimited: [String] = []
    try await transaction(on: connection, logger: logger) {
      try await requireCurrentVersion(on: connection, logger: logger)
      for role in roles {
        let rows = try await connection.allRows(
          "SELECT rolcanlogin FROM pg_catalog.pg_roles WHERE rolname = \(role)",
          logger: logger
        )
        var canLogIn: Bool?
        for (value) in try rows.decode(Bool.self) { canLogIn = value }
        guard let canLogIn else { throw TeamSchemaError.noSuchRole(role) }
        guard canLogIn else { throw TeamSchemaError.notALoginRole(role) }
        _ = try await connection.allRows(
          "SELECT standups_team.add_member(\(team), \(role))",
          logger: logger
        )
        if try await !limitConnections(of: role, on: connection, logger: logger) {
          unlimited.append(role)
        }
      }
    }
    return unlimited
  }

  /// The most connections a member's role may hold at once, unless the administrator chose
  /// another limit: an open app holds one, a command one more, for each of a member's machines.
  public static let memberConnectionLimit = 10

  /// Gives `role` ``memberConnectionLimit`` when it has no limit; returns whether it has one
  /// now (false when the connected role may not set it).
  private static func limitConnections(
    of role: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> Bool {
    let rows = try await connection.allRows(
      "SELECT rolconnlimit, quote_ident(rolname) FROM pg_catalog.pg_roles WHERE rolname = \(role)",
      logger: logger)
    var found: (limit: Int, quoted: String)?
    for row in try rows.decode((Int, String).self) { found = row }
    guard let found, found.limit < 0 else { return true }
    // NB: ALTER ROLE takes no bound parameters: the name is quoted by the server.
    try await connection.query("SAVEPOINT connection_limit", logger: logger)
    do {
      try await connection.query(
        PostgresQuery(
          unsafeSQL: "ALTER ROLE \(found.quoted) CONNECTION LIMIT \(memberConnectionLimit)"),
        logger: logger)
      try await connection.query("RELEASE SAVEPOINT connection_limit", logger: logger)
      return true
    } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
      try await connection.query("ROLLBACK TO SAVEPOINT connection_limit", logger: logger)
      return false
    }
  }

  /// Takes roles out of `team`, as the schema's owner: from the commit on, row-level security
  /// shows them none of its rows and refuses their changes. The members listening are told, so
  /// that an app open as a removed role learns it at once (its next round is refused), and the
  /// team's channel changes, so that a removed role can no longer wake the others' apps.
  ///
  /// ```swift
  /// try await TeamSchema.removeMembers(team: "platform", roles: ["bob"], on: connection,
  ///   logger: logger)
  /// ```
  public static func removeMembers(
    team: String,
    roles: [String],
    on connection: PostgresConnection,
    logger: Logger
  ) async throws {
    try await transaction(on: connection, logger: logger) {
      try await requireCurrentVersion(on: connection, logger: logger)
      for role in roles {
        try await connection.query(
          "DELETE FROM standups_team.team_members WHERE team = \(team) AND role = \(role)",
          logger: logger)
      }
      _ = try await connection.allRows(
        """
        WITH old AS (SELECT channel FROM standups_team.teams WHERE name = \(team)),
          rotated AS (
            UPDATE standups_team.teams SET channel = DEFAULT WHERE name = \(team) RETURNING name)
        SELECT pg_notify(old.channel, '') FROM old, rotated
        """, logger: logger)
    }
  }

  /// Throws unless the schema is this release's: members are only added to or removed from a
  /// schema whose tables this release knows (a newer release's may grant members more).
  static func requireCurrentVersion(
    on connection: PostgresConnection, logger: Logger
  ) async throws {
    let found = try await version(on: connection, logger: logger)
    guard found == currentVersion else {
      throw found == 0
        ? TeamSchemaError.missingSchema
        : found > currentVersion
          ? TeamSchemaError.newerSchema(found: found, supported: currentVersion)
          : TeamSchemaError.otherVersion(found: found, supported: currentVersion)
    }
  }

  /// Locks `table` of the team schema until the transaction ends, so that the owner's commands
  /// that take it (`setUp`, a prune) run one after the other; taken before the transaction's
  /// first read, it leaves that read to see what the run before committed.
  ///
  /// Members may only read the team's tables, and reading is the one thing this mode (EXCLUSIVE)
  /// lets through: no member can take it, nor hold it back (an advisory lock, which any role may
  /// take, they could). Guarded by `TeamHistoryTests.noMemberCanHoldTheOwnersPruneOrSetUpBack`.
  static func lockForTheOwner(
    _ table: String, on connection: PostgresConnection, logger: Logger
  ) async throws {
    try await connection.query(
      "LOCK TABLE standups_team.\(unescaped: table) IN EXCLUSIVE MODE", logger: logger)
  }

  /// Runs `body` in one transaction, rolled back if it throws; its error is rethrown as it is
  /// (postgres-nio's `withTransaction` wraps it), so that callers can tell a sentence of ours.
  ///
  /// Read committed whatever the server's default: each statement sees what committed before it
  /// began, so a `setUp` that waited for another reads the schema that one made.
  private static func transaction(
    on connection: PostgresConnection,
    logger: Logger,
    _ body: () async throws -> Void
  ) async throws {
    try await connection.query("BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger)
    do {
      try await body()
    } catch {
      // NB: A session the server ended (stopped, say) is not rolled back: a statement sent on it
      // is never answered, and its transaction ended with it. Guarded by
      // TeamCommandLineTests.setUpWaitingOnAnotherWhenTheServerStopsEndsWithASentence.
      if !connection.isClosed, !serverEndedTheSession(error) {
        _ = try? await connection.query("ROLLBACK", logger: logger)
      }
      throw error
    }
    try await connection.query("COMMIT", logger: logger)
  }

  /// Whether `error` says the server ended the session: the connection closed under the
  /// statement, or the server's error was FATAL or PANIC (it closes the connection after).
  private static func serverEndedTheSession(_ error: any Error) -> Bool {
    if error is ServerClosedTheConnection { return true }
    guard let error = error as? PSQLError else { return false }
    switch error.code {
    case .serverClosedConnection, .uncleanShutdown, .connectionError, .clientClosedConnection:
      return true
    case .server:
      let severity = error.serverInfo?[.severity]
      return severity == "FATAL" || severity == "PANIC"
    default:
      return false
    }
  }

  // NB: Taken only before there is a schema: once there is one, `setUp` locks its version table
  // instead, which a member cannot hold. A release before that took this key every time, so
  // such a release's `team setup` and this one's do not wait for each other.
  static let setUpLock: Int64 = 0x5354_414E_4455_5053

  /// The version of the team schema on the server: 0 when there is none.
  public static func version(on connection: PostgresConnection, logger: Logger) async throws
    -> Int
  {
    try await installed(on: connection, logger: logger).version
  }

  /// Throws unless this release can sync with the schema on the server: one of its own
  /// version, or a newer release's that is still compatible with it (``compatibleFrom``).
  ///
  /// - Throws: ``SyncProblem/schema(_:)`` with ``TeamSchemaError/newerSchema(found:supported:)``
  ///   ("update standups") or ``TeamSchemaError/otherVersion(found:supported:)`` (an older
  ///   schema, for the owner to upgrade), or what the server answered.
  static func requireSyncable(on connection: PostgresConnection, logger: Logger) async throws {
    let found = try await installed(on: connection, logger: logger)
    do {
      try requireSyncable(version: found.version, compatibleFrom: found.compatibleFrom)
    } catch {
      throw SyncProblem.schema(error)
    }
  }

  /// Throws unless this release can sync with a schema of `version`, compatible from
  /// `compatibleFrom`: the rule ``requireSyncable(on:logger:)`` applies, for a version read
  /// with other things in one statement (as each round's `TeamServer.requireMembership` does).
  static func requireSyncable(version: Int, compatibleFrom: Int) throws(TeamSchemaError) {
    if version > currentVersion, compatibleFrom <= currentVersion { return }
    guard version == currentVersion else {
      throw version > currentVersion
        ? TeamSchemaError.newerSchema(found: version, supported: currentVersion)
        : TeamSchemaError.otherVersion(found: version, supported: currentVersion)
    }
  }

  /// The schema's version and the oldest a release may know to sync with it, as SQL over the row
  /// `v` of `standups_team.schema_version`: what setup and every round read.
  ///
  /// NB: Read through the row's JSON, so that a version 1 schema, which has no `compatible_from`
  /// yet, answers too: it is compatible only with itself.
  static let versionColumns =
    "v.version, COALESCE((to_jsonb(v) ->> 'compatible_from')::integer, v.version)"

  /// The schema's version and the oldest a release may know to sync with it; (0, 0) when there
  /// is no schema.
  private static func installed(on connection: PostgresConnection, logger: Logger) async throws
    -> (version: Int, compatibleFrom: Int)
  {
    let exists = try await connection.allRows(
      "SELECT to_regclass(\("standups_team.schema_version")) IS NOT NULL",
      logger: logger
    )
    var hasTable = false
    for (value) in try exists.decode(Bool.self) { hasTable = value }
    guard hasTable else { return (0, 0) }
    let rows = try await connection.allRows(
      "SELECT \(unescaped: versionColumns) FROM standups_team.schema_version AS v",
      logger: logger
    )
    var found = (version: 0, compatibleFrom: 0)
    for (version, compatibleFrom) in try rows.decode((Int, Int).self) {
      found = (version, compatibleFrom)
    }
    return found
  }
}
