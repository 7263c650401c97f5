import Foundation
import PostgresNIO
public import StorageClient

/// Why a round with the team's server did not happen, in a sentence, with the exit code the
/// commands end with (sysexits).
///
/// Nothing local is touched by a round that fails: what was waiting still waits.
///
/// ```swift
/// do {
///   try await engine.syncOnce()
/// } catch let problem as SyncProblem {
///   print(problem)  // "The team's server at 127.0.0.1:5432 cannot be reached: …"
///   exit(problem.exitCode)
/// }
/// ```
public enum SyncProblem: Error, Equatable, CustomStringConvertible {
  /// The server cannot be reached, or what answered is not PostgreSQL.
  case unreachable(server: String, reason: String)
  /// The server took the connection, then answered nothing for
  /// ``DeadLinkDetection/answerLimit``: it is stopped or stuck, though its host answers for it.
  case noAnswer(server: String)
  /// The server has no connection to give this role now: the role's connection limit, or the
  /// server's, is reached.
  case noFreeConnection(server: String, reason: String)
  /// The server is up and the role may sync, but it could not do the work now: a lock another
  /// session holds, or its memory for serializable transactions is full. Nothing was lost, and
  /// the engine tries again.
  case busy(server: String, reason: String)
  /// The server refused what this machine sent, with a reason that is none of the above (a rule
  /// of a newer schema, say). Nothing was lost.
  case failed(server: String, reason: String)
  /// The server refused the role: a wrong or missing password, or no right to connect.
  case refused(server: String, reason: String)
  /// This machine would not talk to the server: `sslmode` asks for a certificate it can trust,
  /// and the server's is not one. Nothing was sent.
  case untrusted(server: String, reason: String)
  /// The role is not a member of the team (or the team does not exist, which a role outside
  /// it cannot tell apart).
  case notAMember(role: String, team: String)
  /// The role of a machine that had joined the team is a member no more: the machine has left
  /// the team, and its standups stay there as personal ones, with the `unsent` changes made
  /// here that had not reached the team.
  case removed(role: String, team: String, unsent: Int)
  /// The team schema is missing or of another release.
  case schema(TeamSchemaError)
  /// The URL cannot be used.
  case connection(ConnectionProblem)
  /// This machine has joined no team.
  case notJoined
  /// This machine's database could not be read or written (another program holds it, the disk
  /// is full): nothing was lost, and the round is made again later.
  case database(StorageError)

  /// The code a command exits with: 69 (`EX_UNAVAILABLE`) when the server cannot be reached or
  /// used by this release, 75 (`EX_TEMPFAIL`) when it is up but could not sync now, 77
  /// (`EX_NOPERM`) when it refuses the role or its certificate is not trusted, 64 (`EX_USAGE`)
  /// for a URL that cannot be used or a machine in no team.
  public var exitCode: Int32 {
    switch self {
    case .unreachable, .noAnswer, .failed, .schema: 69
    case .noFreeConnection, .busy: 75
    case .refused, .untrusted, .notAMember, .removed: 77
    case .connection, .notJoined: 64
    case .database: 74
    }
  }

  /// The sentence to show the user.
  public var description: String {
    switch self {
    case .unreachable(let server, let reason):
      "The team's server at \(server) cannot be reached: \(reason)."
    case .noAnswer(let server):
      "The team's server at \(server) does not answer: it took the connection, then sent nothing "
        + "for \(DeadLinkDetection.answerLimit.components.seconds) seconds (is it stopped?)."
    case .noFreeConnection(let server, let reason):
      "The team's server at \(server) has no connection free for this machine (\(reason)): "
        + "close another app or session of this role, or try again later."
    case .busy(let server, let reason):
      "The team's server at \(server) could not sync now: \(reason). Nothing was lost; the "
        + "changes wait here."
    case .failed(let server, let reason):
      "The team's server at \(server) refused what this machine sent: \(reason). Nothing was "
        + "lost; the changes wait here."
    case .refused(let server, let reason):
      "The team's server at \(server) refused the connection: \(reason)."
    case .untrusted(let server, let reason):
      "Nothing was sent to the team's server at \(server): \(reason)."
    case .notAMember(let role, let team):
      "The PostgreSQL role \"\(role)\" is not a member of the team \"\(team)\": whoever owns the "
        + "team's database adds it with standups team add."
    case .removed(let role, let team, let unsent):
      "The PostgreSQL role \"\(role)\" is no longer a member of the team \"\(team)\": this machine "
        + "has left the team, and its standups stay here as your own"
        + (unsent == 0
          ? "."
          : unsent == 1
            ? ", with 1 change made here that had not reached the team."
            : ", with \(unsent) changes made here that had not reached the team.")
    case .schema(let error): error.description
    case .connection(let problem): problem.description
    case .notJoined:
      "This machine has joined no team: standups team join URL TEAM."
    case .database(let error):
      "The sync stopped. \(error.aboutTheDatabase) Nothing is lost: what waits here and on the "
        + "server goes at the next sync."
    }
  }

  /// The problem an error of postgres-nio's is, for the server `description` names.
  static func from(_ error: any Error, for description: ConnectionDescription) -> SyncProblem {
    let server = description.serverName
    if let problem = error as? SyncProblem { return problem }
    if let reason = distrust((error as? PSQLError)?.underlying ?? error, in: description) {
      return .untrusted(server: server, reason: reason)
    }
    if let error = error as? TeamSchemaError { return .schema(error) }
    if let error = error as? StorageError { return .database(error) }
    if error is ServerClosedTheConnection { return .unreachable(server: server, reason: closed) }
    let underlying = (error as? PSQLError)?.underlying ?? error
    if underlying is DeadLinkDetection.NoAnswer { return .noAnswer(server: server) }
    guard let error = error as? PSQLError else {
      return .unreachable(server: server, reason: networkReason(error) ?? String(describing: error))
    }
    if let state = error.serverInfo?[.sqlState] {
      let message = error.serverInfo?[.message] ?? "error \(state)"
      // NB: Class 28 is "invalid authorization specification"; 42501 is "insufficient
      // privilege"; 3D000 is "invalid catalog name" (no such database).
      if state.hasPrefix("28") || state == "42501" {
        return .refused(server: server, reason: message)
      }
      // NB: 53300, too many connections: the role's limit, or the server's.
      if state == "53300" { return .noFreeConnection(server: server, reason: message) }
      // NB: 40001 and 40P01, a serialization failure or a deadlock, left after the push tried
      // again; 55P03, a lock not available; 57014, a statement timed out; 53200, out of memory
      // (the server's table of serializable reads).
      if ["40001", "40P01", "55P03", "57014", "53200"].contains(state) {
        return .busy(server: server, reason: message)
      }
      // NB: Class 08 is a connection exception; 57P01–57P03, the server shutting down or
      // starting; 3D000, a database that is not there.
      if state.hasPrefix("08") || state.hasPrefix("57P") || state == "3D000" {
        return .unreachable(server: server, reason: message)
      }
      return .failed(server: server, reason: message)
    }
    switch error.code {
    case .authMechanismRequiresPassword:
      return .refused(
        server: server,
        reason: "it asks for a password, and neither PGPASSWORD nor ~/.pgpass gives one")
    case .unsupportedAuthMechanism, .saslError:
      return .refused(server: server, reason: "it asks for a way of logging in this app lacks")
    case .sslUnsupported:
      return .unreachable(server: server, reason: "it does not speak TLS, which sslmode requires")
    case .messageDecodingFailure, .unexpectedBackendMessage,
      .receivedUnencryptedDataAfterSSLRequest:
      return .unreachable(server: server, reason: "what answered does not speak PostgreSQL")
    case .serverClosedConnection, .uncleanShutdown:
      return .unreachable(server: server, reason: closed)
    default:
      let reason =
        error.underlying.flatMap(networkReason) ?? error.underlying.map { String(describing: $0) }
        ?? "\(error.code)"
      return .unreachable(server: server, reason: reason)
    }
  }

  /// Why the server's certificate is not trusted, when that is what `error` says.
  private static func distrust(_ error: any Error, in description: ConnectionDescription)
    -> String?
  {
    let authority = description.sslRootCertificate
    switch error {
    case let error as NIOSSLExtraError where error == .failedToValidateHostname:
      guard case .tcp(let host, _) = description.endpoint else { return nil }
      return "its certificate is not for \(host), the host connected to (sslmode=verify-full)"
    case NIOSSLError.handshakeFailed(let failure)
    where "\(failure)".contains("CERTIFICATE_VERIFY_FAILED"):
      return "its certificate is not signed by the certificate authority in \(authority)"
    case NIOSSLError.failedToLoadCertificate, NIOSSLError.noSuchFilesystemObject:
      return "the certificate authority file \(authority) (sslrootcert) cannot be read"
    default:
      return nil
    }
  }

  private static let closed = "it closed the connection (is it a PostgreSQL server, and up?)"

  /// A network failure in the words people know ("Connection refused"), not the calls and
  /// types that met it.
  private static func networkReason(_ error: any Error) -> String? {
    switch error {
    case let error as IOError:
      return String(cString: strerror(error.errnoCode))
    case let error as NIOConnectionError:
      if let failure = error.connectionErrors.first {
        return networkReason(failure.error) ?? String(describing: failure.error)
      }
      return error.dnsAError != nil || error.dnsAAAAError != nil
        ? "the host name \(error.host) could not be found" : nil
    case ChannelError.connectTimeout:
      return "no answer in time"
    default:
      return nil
    }
  }
}
