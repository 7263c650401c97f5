public import PostgresNIO

extension TeamSchema {
  /// Creates or upgrades the team schema on `server`, connecting as its URL's role with the
  /// password libpq's rules give (``ConnectionDescription/password(environment:homeFolder:)``).
  ///
  /// ```swift
  /// try await TeamSchema.setUp(server: ConnectionDescription(url: url), logger: logger)
  /// ```
  ///
  /// - Throws: ``TeamSchemaError`` when the server holds a newer release's schema,
  ///   ``SyncProblem`` when it cannot be reached or refuses the role.
  public static func setUp(server: ConnectionDescription, logger: Logger = .teamSync)
    async throws
  {
    try await administer(server, logger: logger) { connection in
      try await setUp(on: connection, logger: logger)
    }
  }

  /// Makes existing login roles members of `team` on `server` (see
  /// ``addMembers(team:roles:on:logger:)``); returns the roles whose connections the connected
  /// role may not limit.
  ///
  /// - Throws: ``TeamSchemaError`` for a role that does not exist or cannot log in,
  ///   ``SyncProblem`` when the server cannot be reached or refuses the role.
  @discardableResult
  public static func addMembers(
    team: String, roles: [String], server: ConnectionDescription, logger: Logger = .teamSync
  ) async throws -> [String] {
    try await administer(server, logger: logger) { connection in
      try await addMembers(team: team, roles: roles, on: connection, logger: logger)
    }
  }

  /// Takes roles out of `team` on `server` (see ``removeMembers(team:roles:on:logger:)``).
  ///
  /// - Throws: ``SyncProblem`` when the server cannot be reached or refuses the role.
  public static func removeMembers(
    team: String, roles: [String], server: ConnectionDescription, logger: Logger = .teamSync
  ) async throws {
    try await administer(server, logger: logger) { connection in
      try await removeMembers(team: team, roles: roles, on: connection, logger: logger)
    }
  }

  /// Runs `work` on a connection to `server` as its URL's role; a failure to connect comes out
  /// as a ``SyncProblem``, a refusal of the schema's as the ``TeamSchemaError`` it is.
  static func administer<Result: Sendable>(
    _ server: ConnectionDescription,
    logger: Logger,
    _ work: @escaping @Sendable (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let password: String?
    do {
      password = try server.password()
    } catch {
      throw SyncProblem.connection(error)
    }
    do {
      return try await server.withConnection(
        password: password, logger: logger, answerLimit: nil, work)
    } catch let error as TeamSchemaError {
      throw error
    } catch {
      throw SyncProblem.from(error, for: server)
    }
  }
}
