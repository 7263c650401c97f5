public import Foundation

/// Where a team's PostgreSQL server is and who connects to it, read from a libpq connection URL.
///
/// A team's server is named the way every PostgreSQL tool names one, so that the URL a member
/// gives `psql` works here too: `postgresql://user@host:port/db?sslmode=…`. The host may be a
/// Unix-socket folder, percent-encoded in the URL or given as `?host=/path`. What the URL
/// leaves out comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGSSLMODE` and
/// `PGSSLROOTCERT`, then from libpq's defaults (Debian's socket folder, port 5432, the login
/// name, a database named after the user, `sslmode=prefer`).
///
/// The URL never carries a password: the app would store it with the team's settings. The
/// password comes from `PGPASSWORD` or the password file (``password(environment:homeFolder:)``).
///
/// ```swift
/// let server = try ConnectionDescription(
///   url: "postgresql://alice@db.example.com/standups?sslmode=verify-full"
/// )
/// let password = try server.password()
/// let configuration = try server.connectionConfiguration(password: password)
/// ```
///
/// > Important: Only one host is supported, not libpq's comma-separated list, and no client
/// > certificates (`sslcert`, `sslkey`), certificate revocation lists, `hostaddr`, or
/// > `target_session_attrs`: such a URL is refused with a sentence naming the parameter.
public struct ConnectionDescription: Sendable, Equatable {
  /// Where the server listens.
  public enum Endpoint: Sendable, Equatable {
    /// A host name or IP address, and a TCP port.
    case tcp(host: String, port: Int)
    /// A folder holding the server's socket `.s.PGSQL.<port>`.
    case unixSocket(folder: String, port: Int)
  }

  /// Where the server listens.
  public var endpoint: Endpoint
  /// The PostgreSQL role to connect as.
  public var user: String
  /// The database holding the team schema.
  public var database: String
  /// How much the connection insists on TLS, and what it checks of the server's certificate.
  public var sslMode: SSLMode
  /// The certificates that `verify-ca` and `verify-full` trust: a PEM file, or `system` for the
  /// system's trust store.
  public var sslRootCertificate: String

  /// The socket folder libpq uses when no host is given: Debian's build, which this project's
  /// servers run, puts it here rather than upstream's `/tmp`.
  public static let defaultSocketFolder = "/var/run/postgresql"

  /// The port PostgreSQL listens on unless told otherwise.
  public static let defaultPort = 5432

  /// Reads a libpq connection URL.
  ///
  /// ```swift
  /// let local = try ConnectionDescription(url: "postgresql:///standups")  // Unix socket
  /// let socket = try ConnectionDescription(url: "postgresql://%2Ftmp%2Fpg/standups")
  /// ```
  ///
  /// - Parameters:
  ///   - url: A `postgresql://` or `postgres://` URL.
  ///   - environment: Where the `PG…` variables and `HOME` come from; the process's by default.
  /// - Throws: ``ConnectionProblem``, whose description is a sentence for the user.
  public init(
    url: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(ConnectionProblem) {
    let parts = try URLParts(url)
    var parameters = parts.parameters
    let host = parameters.removeValue(forKey: "host") ?? parts.host
    let port = parameters.removeValue(forKey: "port") ?? parts.port
    let user = parameters.removeValue(forKey: "user") ?? parts.user
    let database = parameters.removeValue(forKey: "dbname") ?? parts.database
    let sslMode = parameters.removeValue(forKey: "sslmode")
    let sslRootCertificate = parameters.removeValue(forKey: "sslrootcert")
    if let unknown = parameters.keys.sorted().first {
      throw .unsupportedParameter(unknown)
    }

    let portNumber = try Self.port(nonEmpty(port) ?? nonEmpty(environment["PGPORT"]))
    let hostName =
      nonEmpty(host) ?? nonEmpty(environment["PGHOST"]) ?? Self.defaultSocketFolder
    if hostName.contains(",") {
      throw .severalHosts(hostName)
    }
    // NB: libpq's rule: a host that starts with a slash is a socket folder, not a name.
    endpoint =
      hostName.hasPrefix("/")
      ? .unixSocket(folder: hostName, port: portNumber)
      : .tcp(host: hostName, port: portNumber)
    guard
      let userName = nonEmpty(user) ?? nonEmpty(environment["PGUSER"])
        ?? nonEmpty(ProcessInfo.processInfo.userName)
    else { throw .noUser }
    self.user = userName
    self.database = nonEmpty(database) ?? nonEmpty(environment["PGDATABASE"]) ?? userName
    let modeName = nonEmpty(sslMode) ?? nonEmpty(environment["PGSSLMODE"]) ?? "prefer"
    guard let mode = SSLMode(rawValue: modeName) else { throw .unknownSSLMode(modeName) }
    self.sslMode = mode
    self.sslRootCertificate =
      nonEmpty(sslRootCertificate) ?? nonEmpty(environment["PGSSLROOTCERT"])
      ?? "\(environment["HOME"] ?? NSHomeDirectory())/.postgresql/root.crt"
  }

  /// The password to send, by libpq's rules: `PGPASSWORD` if set and not empty, else the first
  /// matching line of the password file (`PGPASSFILE`, else `~/.pgpass`), else none.
  ///
  /// ```swift
  /// // ~/.pgpass, mode 0600:  db.example.com:5432:standups:alice:s3cret
  /// let password = try server.password()  // "s3cret"
  /// ```
  ///
  /// - Parameters:
  ///   - environment: Where `PGPASSWORD`, `PGPASSFILE` and `HOME` come from.
  ///   - homeFolder: The folder holding `.pgpass` when neither `PGPASSFILE` nor `HOME` says.
  /// - Throws: ``ConnectionProblem/passwordFileOpenToOthers(_:)`` when the password file that
  ///   would be read gives group or others any access, which libpq ignores such a file for.
  public func password(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    homeFolder: String = NSHomeDirectory()
  ) throws(ConnectionProblem) -> String? {
    if let password = nonEmpty(environment["PGPASSWORD"]) {
      return password
    }
    let path =
      nonEmpty(environment["PGPASSFILE"]) ?? "\(environment["HOME"] ?? homeFolder)/.pgpass"
    guard let file = try PasswordFile(path: path) else { return nil }
    return file.password(
      host: passwordFileHost, port: String(port), database: database, user: user)
  }

  /// The port, wherever the server listens.
  public var port: Int {
    switch endpoint {
    case .tcp(_, let port), .unixSocket(_, let port): port
    }
  }

  /// The host as the password file names it: libpq matches a connection through the default
  /// socket folder as `localhost`, any other socket by its folder.
  var passwordFileHost: String {
    switch endpoint {
    case .tcp(let host, _): host
    case .unixSocket(let folder, _): folder == Self.defaultSocketFolder ? "localhost" : folder
    }
  }

  private static func port(_ text: String?) throws(ConnectionProblem) -> Int {
    guard let text else { return defaultPort }
    guard text.allSatisfy(\.isASCII), let port = Int(text), (1...65535).contains(port) else {
      throw .badPort(text)
    }
    return port
  }
}

private func nonEmpty(_ text: String?) -> String? {
  guard let text, !text.isEmpty else { return nil }
  return text
}

/// The pieces of a `postgresql://` URL, percent-decoded, before defaults apply.
private struct URLParts {
  var user: String?
  var host: String?
  var port: String?
  var database: String?
  var parameters: [String: String] = [:]

  init(_ url: String) throws(ConnectionProblem) {
    guard
      let rest = ["postgresql://", "postgres://"].lazy
        .compactMap({ url.hasPrefix($0) ? url.dropFirst($0.count) : nil }).first
    else { throw .notPostgresURL(url) }

    let (beforeQuery, query) = rest.splitOnce("?")
    let (authority, path) = beforeQuery.splitOnce("/")
    if let path { database = try decode(path) }
    if let query {
      for pair in query.split(separator: "&") where !pair.isEmpty {
        let (key, value) = pair.splitOnce("=")
        let name = try decode(key)
        if name == "password" { throw .passwordInURL }
        guard let value else { throw .unsupportedParameter(name) }
        parameters[name] = try decode(value)
      }
    }

    var hostAndPort = authority
    if let at = authority.lastIndex(of: "@") {
      let userInfo = authority[..<at]
      if userInfo.contains(":") { throw .passwordInURL }
      user = try decode(userInfo)
      hostAndPort = authority[authority.index(after: at)...]
    }
    if hostAndPort.hasPrefix("[") {
      // NB: An IPv6 address is bracketed so that its colons are not taken for the port's.
      guard let close = hostAndPort.firstIndex(of: "]") else { throw .notPostgresURL(url) }
      host = String(hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close])
      let afterHost = hostAndPort[hostAndPort.index(after: close)...]
      if afterHost.hasPrefix(":") { port = String(afterHost.dropFirst()) }
    } else {
      let (name, portText) = hostAndPort.splitOnce(":")
      host = try decode(name)
      port = try portText.map(decode)
    }
  }
}

private func decode(_ text: Substring) throws(ConnectionProblem) -> String {
  guard let decoded = String(text).removingPercentEncoding else {
    throw .badPercentEncoding(String(text))
  }
  return decoded
}

extension Substring {
  fileprivate func splitOnce(_ separator: Character) -> (Substring, Substring?) {
    guard let index = firstIndex(of: separator) else { return (self, nil) }
    return (self[..<index], self[self.index(after: index)...])
  }
}

extension ConnectionDescription {
  /// The server and database, for sentences: `db.example.com:5432/standups`, or the socket
  /// folder's path for a Unix socket.
  public var serverName: String {
    switch endpoint {
    case .tcp(let host, let port):
      "\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    case .unixSocket(let folder, let port): "\(folder)/.s.PGSQL.\(port) (\(database))"
    }
  }
}
