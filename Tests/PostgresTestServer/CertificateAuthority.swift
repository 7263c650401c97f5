import Foundation

/// A certificate authority of the test's own, made with `openssl`: it signs server certificates
/// for the host names a test chooses, so that `verify-ca` and `verify-full` can be tried against
/// a real server, and an authority that signed nothing can be the wrong one.
///
/// ```swift
/// let authority = try await CertificateAuthority(named: "team", in: server.folder)
/// let issued = try await authority.issue(for: ["localhost"])
/// try await server.serveTLS(issued)
/// ```
public struct CertificateAuthority: Sendable {
  /// The authority's certificate, a PEM file: what `sslrootcert` names.
  public let certificate: String
  let key: String
  let folder: String

  /// A new authority, its files in `parent`.
  public init(named name: String, in parent: String) async throws {
    folder = "\(parent)/authority-\(name)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    certificate = "\(folder)/root.crt"
    key = "\(folder)/root.key"
    try await Self.openssl([
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=\(name)",
      "-keyout", key, "-out", certificate,
    ])
  }

  /// A server certificate and its key, signed by this authority, for `hostNames` (DNS names
  /// or IP addresses) and nothing else.
  public func issue(for hostNames: [String]) async throws -> (certificate: String, key: String) {
    let name = "server-\(UUID().uuidString.prefix(8))"
    let request = "\(folder)/\(name).csr"
    let issued = (certificate: "\(folder)/\(name).crt", key: "\(folder)/\(name).key")
    let extensions = "\(folder)/\(name).ext"
    let names = hostNames.map { name in
      name.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? "IP:\(name)" : "DNS:\(name)"
    }
    try "subjectAltName=\(names.joined(separator: ","))\n"
      .write(toFile: extensions, atomically: false, encoding: .utf8)
    try await Self.openssl([
      "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(hostNames[0])",
      "-keyout", issued.key, "-out", request,
    ])
    try await Self.openssl([
      "x509", "-req", "-in", request, "-CA", certificate, "-CAkey", key, "-CAcreateserial",
      "-days", "2", "-extfile", extensions, "-out", issued.certificate,
    ])
    return issued
  }

  private static func openssl(_ arguments: [String]) async throws {
    let output = try await runProgram("/usr/bin/env", ["openssl"] + arguments)
    guard output.status == 0 else {
      throw TestServerError(
        "openssl \(arguments.joined(separator: " ")) exited \(output.status): \(output.error)")
    }
  }
}

extension TestServer {
  /// Turns TLS on in the test's own cluster, with a certificate and key `issue` made: the key
  /// is handed to the server's account and closed to others, as PostgreSQL requires.
  public func serveTLS(_ issued: (certificate: String, key: String)) async throws {
    guard ownCluster != nil else {
      throw TestServerError("Only a cluster of the test's own (withOwnServer) may serve TLS.")
    }
    guard chmod(issued.key, 0o600) == 0 else {
      throw TestServerError("chmod \(issued.key) failed: errno \(errno)")
    }
    try ServerAccount.current().hand(issued.certificate, issued.key)
    try await administer("ALTER SYSTEM SET ssl_cert_file = '\(issued.certificate)'")
    try await administer("ALTER SYSTEM SET ssl_key_file = '\(issued.key)'")
    try await administer("ALTER SYSTEM SET ssl = on")
    try await administer("SELECT pg_reload_conf()")
  }
}
