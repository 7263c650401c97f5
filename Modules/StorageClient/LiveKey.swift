public import Dependencies
public import Foundation

extension StorageClient: DependencyKey {
  /// Keeps the standups in the database at ``defaultDatabaseURL(environment:)``, bringing in
  /// the data file of an earlier release there on the first launch.
  public static var liveValue: Self {
    .database(at: defaultDatabaseURL(), importingOnFirstLaunch: earlierReleaseDataFileURL())
  }

  /// Keeps the standups in an SQLite database (see ``StandupsDatabase``).
  ///
  /// - Parameters:
  ///   - url: The database's location; a symbolic link there is followed.
  ///   - earlierReleaseFile: A data file of an earlier release (JSON), imported in one
  ///     transaction when the database does not exist yet, and left as it is.
  public static func database(at url: URL, importingOnFirstLaunch earlierReleaseFile: URL? = nil)
    -> Self
  {
    .database(
      StandupsDatabase(
        path: url.path,
        options: StandupsDatabase.Options(importingOnFirstLaunch: earlierReleaseFile?.path)))
  }

  /// A client for `database`.
  public static func database(_ database: StandupsDatabase) -> Self {
    Self(
      load: { try await database.load() },
      apply: { try await database.apply($0) },
      changesElsewhere: { try await database.changesElsewhere() },
      saveMeetingInProgress: { try await database.saveMeetingInProgress($0) },
      discardMeetingInProgress: { try await database.discardMeetingInProgress($0) },
      keepUnreadableDataAside: { try await database.keepUnreadableDataAside() }
    )
  }

  /// Why `url` cannot hold the standups, when it cannot: what is there is a folder, a device, a
  /// named pipe or a socket, or a file stands where a folder of the path should be. `nil` when
  /// the path holds a file, a link to one or to nothing, or nothing yet.
  public static func problemWithDataFile(at url: URL) -> FileProblem? {
    guard case .notADataFile(let problem) = DataFileLocation.inspect(url.path) else { return nil }
    return problem
  }

  /// Where the standups live unless told otherwise: `standups/standups.sqlite` in the XDG data
  /// directory (`$XDG_DATA_HOME`, or `~/.local/share`).
  public static func defaultDatabaseURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    xdgBaseDirectory("XDG_DATA_HOME", homeSubpath: ".local/share", environment: environment)
      .appendingPathComponent("standups/standups.sqlite")
  }

  /// Where releases before the database kept the standups: `standups/standups.json` in the XDG
  /// data directory.
  public static func earlierReleaseDataFileURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    xdgBaseDirectory("XDG_DATA_HOME", homeSubpath: ".local/share", environment: environment)
      .appendingPathComponent("standups/standups.json")
  }
}

/// An XDG base directory: `$variable` when it is an absolute path (the specification says to
/// ignore a relative one), else `homeSubpath` in `$HOME`, else the working directory.
package func xdgBaseDirectory(
  _ variable: String,
  homeSubpath: String,
  environment: [String: String]
) -> URL {
  if let directory = environment[variable], directory.hasPrefix("/") {
    return URL(fileURLWithPath: directory, isDirectory: true)
  }
  if let home = environment["HOME"], !home.isEmpty {
    return URL(fileURLWithPath: home, isDirectory: true)
      .appendingPathComponent(homeSubpath, isDirectory: true)
  }
  return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
}
