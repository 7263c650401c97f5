extension TestServer {
  /// Returns once `query`, run as the administrator, answers `answer`; throws `failure` after a
  /// minute without it, or as soon as `gaveUp` says it will not come. For a test that waits for
  /// something the server shows only in its own tables (a session waiting on a lock, a session
  /// gone): it looks every 20 milliseconds, suspended in between, so that the engine it waits
  /// for, which may run in this process, has the threads the tests share.
  ///
  /// ```swift
  /// try await server.waitUntil(
  ///   "SELECT count(*) FROM pg_stat_activity WHERE usename = 'alice'", answers: "0\n",
  ///   else: "a session of alice's stayed")
  /// ```
  public func waitUntil(
    _ query: String, answers answer: String, gaveUp: () -> Bool = { false },
    else failure: String
  ) async throws {
    for _ in 0..<3000 where !gaveUp() {
      if try await administer(query) == answer { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    throw TestServerError(failure)
  }
}
