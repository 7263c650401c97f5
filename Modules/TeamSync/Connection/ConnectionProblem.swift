/// Why a team server's URL or password could not be used, in a sentence for the user.
///
/// The commands print ``description`` and exit with a usage or configuration code; no stack
/// trace, nothing local touched.
///
/// ```swift
/// do {
///   _ = try ConnectionDescription(url: url)
/// } catch {
///   print(error)  // "… is not a PostgreSQL URL: it starts with postgresql:// …"
/// }
/// ```
public enum ConnectionProblem: Error, Equatable, CustomStringConvertible {
  /// The port is not a number from 1 to 65535.
  case badPort(String)
  /// A `%` in the URL is not followed by two hexadecimal digits.
  case badPercentEncoding(String)
  /// Neither the URL, `PGUSER` nor the system names a user.
  case noUser
  /// The URL does not start with `postgresql://` or `postgres://`.
  case notPostgresURL(String)
  /// The password file gives its group or others some access.
  case passwordFileOpenToOthers(String)
  /// The URL carries a password, which would be stored with the team's settings.
  case passwordInURL
  /// The URL names several hosts, which libpq tries in turn and this app does not.
  case severalHosts(String)
  /// An `sslmode` that libpq does not know.
  case unknownSSLMode(String)
  /// A query parameter this app does not support.
  case unsupportedParameter(String)

  /// The sentence to show the user.
  public var description: String {
    switch self {
    case .badPort(let port):
      "The port \"\(port)\" is not a number from 1 to 65535."
    case .badPercentEncoding(let text):
      "\"\(text)\" in the URL has a % that is not followed by two hexadecimal digits."
    case .noUser:
      "No user is named: give one in the URL (postgresql://USER@HOST/DATABASE) or in PGUSER."
    case .notPostgresURL(let url):
      "\"\(url)\" is not a PostgreSQL URL: it starts with postgresql:// or postgres://, as in "
        + "postgresql://USER@HOST:PORT/DATABASE."
    case .passwordFileOpenToOthers(let path):
      "The password file \(path) can be read or changed by others, so it is ignored, as libpq "
        + "does: make it yours alone with chmod 0600 \(path)."
    case .passwordInURL:
      "The URL carries a password, which would be stored with the team's settings: remove it "
        + "and put it in PGPASSWORD or ~/.pgpass."
    case .severalHosts(let hosts):
      "The URL names several hosts (\(hosts)); give the one server of the team."
    case .unknownSSLMode(let mode):
      "sslmode \"\(mode)\" is not one of disable, allow, prefer, require, verify-ca, verify-full."
    case .unsupportedParameter(let name):
      "The URL's parameter \"\(name)\" is not supported; host, port, user, dbname, sslmode and "
        + "sslrootcert are."
    }
  }
}
