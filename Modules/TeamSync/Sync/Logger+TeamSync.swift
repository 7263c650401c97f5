public import PostgresNIO

extension Logger {
  /// The logger the team's server is spoken to with unless one is given: it reports only what
  /// is critical, since the terminal the app draws on is where a log line would land.
  public static let teamSync = {
    var logger = Logger(label: "standups.team-sync")
    logger.logLevel = .critical
    return logger
  }()
}
