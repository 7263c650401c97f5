/// libpq's `sslmode`: whether the connection uses TLS, and what it checks of the server.
///
/// Each mode maps onto postgres-nio's TLS settings (``ConnectionDescription/transportSecurity``).
/// postgres-nio asks the server for TLS first or not at all, so two modes are approximations,
/// both on the safe side:
/// - `allow` (libpq: plain first, TLS only if the server insists) asks for TLS first, like
///   `prefer`;
/// - `require` never checks the certificate, even when a root certificate file exists (where
///   libpq would check it as `verify-ca` does): use `verify-ca` or `verify-full` to check.
///
/// Over a Unix socket no mode applies: PostgreSQL speaks no TLS there, as with libpq.
///
/// ```swift
/// let mode = SSLMode(rawValue: "verify-full")  // .verifyFull
/// ```
public enum SSLMode: String, Sendable, CaseIterable {
  /// No TLS.
  case disable
  /// TLS if the server offers it; approximated as ``prefer``.
  case allow
  /// TLS if the server offers it, without checking its certificate.
  case prefer
  /// TLS or no connection, without checking the server's certificate.
  case require
  /// TLS, and a certificate signed by a trusted authority; any host name.
  case verifyCA = "verify-ca"
  /// TLS, and a certificate signed by a trusted authority for the host connected to.
  case verifyFull = "verify-full"
}
