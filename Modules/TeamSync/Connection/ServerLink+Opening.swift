import PostgresNIO

// Opening one connection to a team's server: its URL and the member's password read as libpq
// reads them (ConnectionDescription.swift, PasswordFile.swift), the connection made with TLS as
// the URL asks (ConnectionDescription+Client.swift) and watched for a server that stops answering
// (DeadLinkDetection.swift). ServerLink.swift shares what this opens among a server's teams.

extension ServerLink.Open {
  /// Opens a connection to `server` as the URL says, watched for a server that stops answering
  /// for `answerLimit`; every failure, of the URL, the password or the connecting, comes out as
  /// a ``SyncProblem``.
  static func connect(
    to server: String, environment: [String: String], logger: Logger, answerLimit: Duration?
  ) async -> Swift.Result<ServerLink.Open, SyncProblem> {
    let description: ConnectionDescription
    let password: String?
    do throws(ConnectionProblem) {
      description = try ConnectionDescription(url: server, environment: environment)
      password = try description.password(environment: environment)
    } catch {
      return .failure(.connection(error))
    }
    let verdict = DeadLinkDetection.Verdict()
    do {
      let connection = try await description.connect(
        password: password, logger: logger, answerLimit: answerLimit, verdict: verdict)
      return .success(
        ServerLink.Open(connection: connection, description: description, verdict: verdict))
    } catch {
      return .failure(SyncProblem.from(error, for: description))
    }
  }
}
