import Foundation
import PostgresNIO
import PostgresTestServer
import Testing

@testable import TeamSync

/// `sslmode` and `sslrootcert` against a real server serving TLS with a certificate that an
/// authority of the test's own signed for `localhost` alone (``CertificateAuthority``).
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL, .needsOpenSSL)
struct TLSTests {
  @Test func verifyFullSyncsOnlyWithTheRightAuthorityAndHostName() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("platform", members: ["alice": "alice-secret"])
      let authority = try await CertificateAuthority(named: "team", in: server.folder)
      let stranger = try await CertificateAuthority(named: "stranger", in: server.folder)
      try await server.serveTLS(try await authority.issue(for: ["localhost"]))

      func url(host: String, mode: String, trusting root: String) -> String {
        server.url(for: "alice")
          .replacingOccurrences(of: "127.0.0.1", with: host)
          .replacingOccurrences(of: "sslmode=disable", with: "sslmode=\(mode)&sslrootcert=\(root)")
      }
      let trusted = url(host: "localhost", mode: "verify-full", trusting: authority.certificate)

      // NB: The app's own connection, asked which protocol it speaks: TLS, verified.
      let description = try ConnectionDescription(url: trusted, environment: [:])
      let encrypted = try await description.withConnection(
        password: "alice-secret", logger: TestServer.logger
      ) { connection in
        let rows = try await connection.query(
          "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: TestServer.logger)
        var ssl = false
        for try await value in rows.decode(Bool.self) { ssl = value }
        return ssl
      }
      #expect(encrypted)

      let refusals: [(url: String, reason: String)] = [
        (
          url(host: "localhost", mode: "verify-full", trusting: stranger.certificate),
          "its certificate is not signed by the certificate authority in \(stranger.certificate)"
        ),
        (
          url(host: "127.0.0.1", mode: "verify-full", trusting: authority.certificate),
          "its certificate is not for 127.0.0.1, the host connected to"
        ),
        (
          url(host: "localhost", mode: "verify-ca", trusting: "\(server.folder)/no-such.crt"),
          "the certificate authority file \(server.folder)/no-such.crt (sslrootcert) cannot be read"
        ),
      ]
      for refusal in refusals {
        let home = try Home(password: "alice-secret", in: server.folder)
        let join = try await standups(["team", "join", refusal.url, "platform"], home.environment)
        #expect(join.status == 77, "\(refusal.url): \(join.error)")
        #expect(join.error.contains("Nothing was sent"), "\(join.error)")
        #expect(join.error.contains(refusal.reason), "\(join.error)")
        #expect(try await standups(["team", "status"], home.environment).status == 64)
      }

      // NB: verify-ca checks the authority and not the host name, as libpq's does.
      for url in [
        trusted, url(host: "127.0.0.1", mode: "verify-ca", trusting: authority.certificate),
      ] {
        let home = try Home(password: "alice-secret", in: server.folder)
        let join = try await standups(["team", "join", url, "platform"], home.environment)
        #expect(join.status == 0, "\(url): \(join.error)")
        #expect(try await standups(["sync"], home.environment).status == 0)
      }
    }
  }
}
