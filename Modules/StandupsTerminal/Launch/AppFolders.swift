public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the app keeps its files on this machine: the user's XDG base directories.
///
/// The data folder is `$XDG_DATA_HOME/standups` (`~/.local/share/standups`), the state folder
/// `$XDG_STATE_HOME/standups` (`~/.local/state/standups`). An XDG variable counts only when it is
/// an absolute path, as the specification says. The home folder is `$HOME`, or, when that is not
/// set (a service, `env -i`), the account's home in the password database; an account with none
/// has no folders, and nothing is ever put in the working directory instead.
///
/// ```swift
/// let folders = AppFolders(environment: ProcessInfo.processInfo.environment)
/// folders.database  // ~/.local/share/standups/standups.sqlite
/// ```
public struct AppFolders: Equatable, Sendable {
  /// The user's home folder, `nil` when the account has none.
  public var home: URL?
  /// Where the standups are kept, `nil` without a home or `$XDG_DATA_HOME`.
  public var data: URL?
  /// Where the session and recovery files are kept, `nil` without a home or `$XDG_STATE_HOME`.
  public var state: URL?

  /// The folders for an environment, with the account's home from the password database when
  /// `HOME` is not set.
  public init(
    environment: [String: String],
    accountHome: @autoclosure () -> String? = AppFolders.accountHome()
  ) {
    let home = [environment["HOME"], accountHome()].lazy
      .compactMap { $0 }
      .first { $0.hasPrefix("/") }
      .map { URL(fileURLWithPath: $0, isDirectory: true) }
    func folder(_ variable: String, _ subpath: String) -> URL? {
      let base =
        environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
        ?? home?.appendingPathComponent(subpath, isDirectory: true)
      return base?.appendingPathComponent("standups", isDirectory: true)
    }
    self.home = home
    data = folder("XDG_DATA_HOME", ".local/share")
    state = folder("XDG_STATE_HOME", ".local/state")
  }

  /// The database, unless told otherwise.
  public var database: URL? { data?.appendingPathComponent("standups.sqlite") }

  /// Where releases before the database kept the standups.
  public var earlierReleaseDataFile: URL? { data?.appendingPathComponent("standups.json") }

  /// The session: the screens open when the app quit.
  public var sessionFile: URL? { state?.appendingPathComponent("session.json") }

  /// This account's home folder in the password database, if it names one.
  public static func accountHome() -> String? {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
    let home = String(cString: directory)
    return home.isEmpty ? nil : home
  }
}
