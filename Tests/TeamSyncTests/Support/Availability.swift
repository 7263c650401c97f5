import PostgresTestServer
import Testing

extension Trait where Self == ConditionTrait {
  /// Runs a suite only where a PostgreSQL server can be had (``TestServer/unavailable``); elsewhere
  /// it is skipped, and the run says so and why.
  static var needsPostgreSQL: Self {
    .enabled(
      """
      needs PostgreSQL's server programs (initdb), which this machine lacks: \
      apt-get install postgresql (Debian, Ubuntu) or brew install postgresql@15 (macOS)
      """
    ) { TestServer.unavailable == nil }
  }

  /// Runs a suite only where `openssl` can make its certificates
  /// (``CertificateAuthority/unavailable``); elsewhere it is skipped, saying why.
  static var needsOpenSSL: Self {
    .enabled(
      """
      needs openssl for its certificate authority, which this machine lacks: \
      apt-get install openssl (Debian, Ubuntu); macOS has it
      """
    ) { CertificateAuthority.unavailable == nil }
  }
}
