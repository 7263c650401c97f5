import NIOCore
public import PostgresNIO

extension ConnectionDescription {
  /// What the connection asks of TLS: the plain statement of ``sslMode`` on this endpoint, which
  /// ``connectionConfiguration(password:)`` turns into postgres-nio's settings.
  public enum TransportSecurity: Sendable, Equatable {
    /// Plain: `disable`, or any mode over a Unix socket.
    case none
    /// TLS when the server offers it, its certificate unchecked: `allow` and `prefer`.
    case preferred
    /// TLS or no connection, its certificate unchecked: `require`.
    case requiredUnverified
    /// TLS or no connection, its certificate checked against `trusting` (a PEM file, or
    /// `system`), and its host name too when `checkingHostName`.
    case requiredVerified(trusting: String, checkingHostName: Bool)
  }

  /// What the connection asks of TLS, from ``sslMode`` and the endpoint.
  ///
  /// ```swift
  /// try ConnectionDescription(url: "postgresql://a@h/d?sslmode=verify-ca").transportSecurity
  /// // .requiredVerified(trusting: "~/.postgresql/root.crt", checkingHostName: false)
  /// ```
  public var transportSecurity: TransportSecurity {
    if case .unixSocket = endpoint { return .none }
    switch sslMode {
    case .disable: return .none
    case .allow, .prefer: return .preferred
    case .require: return .requiredUnverified
    case .verifyCA: return .requiredVerified(trusting: sslRootCertificate, checkingHostName: false)
    case .verifyFull:
      return .requiredVerified(trusting: sslRootCertificate, checkingHostName: true)
    }
  }

  private enum TLSSettings {
    case disable
    case prefer(TLSConfiguration)
    case require(TLSConfiguration)
  }

  private var tls: TLSSettings {
    var configuration = TLSConfiguration.makeClientConfiguration()
    switch transportSecurity {
    case .none:
      return .disable
    case .preferred:
      configuration.certificateVerification = .none
      return .prefer(configuration)
    case .requiredUnverified:
      configuration.certificateVerification = .none
      return .require(configuration)
    case .requiredVerified(let trusting, let checkingHostName):
      configuration.trustRoots = trusting == "system" ? .default : .file(trusting)
      configuration.certificateVerification =
        checkingHostName ? .fullVerification : .noHostnameVerification
      return .require(configuration)
    }
  }
}

extension ConnectionDescription {
  /// postgres-nio's settings for one connection to this server: what the sync engine and the
  /// commands use, since a single connection fails at once, with the server's reason, where a
  /// pool would keep trying.
  ///
  /// - Throws: NIOSSL's error when the certificate authority file cannot be read.
  public func connectionConfiguration(password: String?) throws -> PostgresConnection.Configuration
  {
    var configuration: PostgresConnection.Configuration
    switch endpoint {
    case .unixSocket(let folder, let port):
      configuration = PostgresConnection.Configuration(
        unixSocketPath: "\(folder)/.s.PGSQL.\(port)", username: user, password: password,
        database: database)
    case .tcp(let host, let port):
      let tls: PostgresConnection.Configuration.TLS =
        switch self.tls {
        case .disable: .disable
        case .prefer(let settings): .prefer(try NIOSSLContext(configuration: settings))
        case .require(let settings): .require(try NIOSSLContext(configuration: settings))
        }
      configuration = PostgresConnection.Configuration(
        host: host, port: port, username: user, password: password, database: database, tls: tls)
    }
    configuration.options.connectTimeout = .seconds(10)
    return configuration
  }

  /// Connects to the server for `body` and closes the connection after.
  ///
  /// When the server closes the connection first, the call ends at once, even if a statement
  /// of `body`'s was never answered: a stopped server never hangs the caller.
  ///
  /// ```swift
  /// try await server.withConnection(password: password, logger: logger) { connection in
  ///   try await connection.query("SELECT 1", logger: logger)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - password: The role's password, from `PGPASSWORD` or `~/.pgpass`; `nil` for none.
  ///   - logger: Where postgres-nio logs.
  ///   - answerLimit: How long the server may leave a statement without a word before the
  ///     connection is taken for dead (`DeadLinkDetection.AnswerWatch`); `nil` for an
  ///     administrator's work, whose statements may run long.
  ///   - body: The work, on the open connection.
  public func withConnection<Result: Sendable>(
    password: String?,
    logger: Logger,
    answerLimit: Duration? = DeadLinkDetection.answerLimit,
    _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
  ) async throws -> Result {
    let verdict = DeadLinkDetection.Verdict()
    let connection = try await connect(
      password: password, logger: logger, answerLimit: answerLimit, verdict: verdict)
    do {
      let result = try await CloseWatch(connection).untilClosed(
        whyClosed: { verdict.whyClosed }, { try await body(connection) })
      try? await connection.close()
      return result
    } catch {
      try? await connection.close()
      throw error
    }
  }
}

extension ConnectionDescription {
  /// Connects to the server, both ends set to notice a dead link within seconds
  /// (``DeadLinkDetection``): over TCP, this app opens the socket itself, with keepalive and a
  /// user timeout, and hands it to postgres-nio.
  ///
  /// ```swift
  /// let connection = try await server.connect(password: password, logger: logger)
  /// ```
  public func connect(
    password: String?, logger: Logger,
    answerLimit: Duration? = DeadLinkDetection.answerLimit
  ) async throws -> PostgresConnection {
    try await connect(
      password: password, logger: logger, answerLimit: answerLimit,
      verdict: DeadLinkDetection.Verdict())
  }

  /// Connects, its ``DeadLinkDetection/AnswerWatch`` marking `verdict` if it ends the
  /// connection.
  func connect(
    password: String?, logger: Logger, answerLimit: Duration?,
    verdict: DeadLinkDetection.Verdict
  ) async throws -> PostgresConnection {
    var configuration = try connectionConfiguration(password: password)
    configuration.options.additionalStartupParameters = DeadLinkDetection.sessionParameters
    guard case .tcp(let host, let port) = endpoint else {
      return try await PostgresConnection.connect(
        configuration: configuration, id: 1, logger: logger)
    }
    let channel = try await DeadLinkDetection.connect(
      host: host, port: port, timeout: configuration.options.connectTimeout,
      answerLimit: answerLimit, verdict: verdict)
    var onChannel = PostgresConnection.Configuration(
      establishedChannel: channel, tls: configuration.tls, username: user, password: password,
      database: database)
    onChannel.options = configuration.options
    // NB: As postgres-nio names the server for TLS when it connects itself: by its host name,
    // and not at all by an IP address, which SNI does not carry.
    let isAddress = (try? SocketAddress(ipAddress: host, port: port)) != nil
    onChannel.options.tlsServerName = isAddress ? nil : host
    do {
      // NB: On the socket's own event loop: postgres-nio adds its handlers there.
      return try await PostgresConnection.connect(
        on: channel.eventLoop, configuration: onChannel, id: 1, logger: logger)
    } catch {
      try? await channel.close()
      throw error
    }
  }
}
