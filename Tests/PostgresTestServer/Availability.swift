import Foundation

extension TestServer {
  /// Why no PostgreSQL server can be had for the team tests on this machine, or `nil` when one
  /// can: the run names its server (`.ci/run` starts one and says where), or this machine has
  /// PostgreSQL's programs (and, for a run as root, the `postgres` account they run as).
  ///
  /// The team tests skip, saying why, on a machine prepared only for the app; a run that sets
  /// `STANDUPS_TEAM_TESTS=required` (`.ci/run` does) never skips them, so a missing server fails
  /// it instead.
  public static let unavailable: String? = {
    let environment = ProcessInfo.processInfo.environment
    if environment["STANDUPS_TEST_POSTGRES_PORT"] != nil
      || environment["STANDUPS_TEAM_TESTS"] == "required"
    {
      return nil
    }
    do {
      _ = try binary("initdb")
      _ = try ServerAccount.current()
      return nil
    } catch {
      return "\(error)"
    }
  }()
}

extension CertificateAuthority {
  /// Why no certificate authority can be made here, or `nil` when `openssl` is on the PATH (or
  /// the run sets `STANDUPS_TEAM_TESTS=required`, as `.ci/run` does, and must not skip).
  public static let unavailable: String? = {
    let environment = ProcessInfo.processInfo.environment
    guard environment["STANDUPS_TEAM_TESTS"] != "required" else { return nil }
    let path = (environment["PATH"] ?? "").split(separator: ":")
    guard path.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/openssl") })
    else { return "openssl is not on the PATH" }
    return nil
  }()
}
