public import Foundation

// NB: No `liveValue`: where the database is depends on the user's folders and options, which
// the front end decides, so it always gives the client it built (`database(at:)`).
extension StorageClient {
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
      finishOpening: { try await database.finishOpening() },
      apply: { try await database.apply($0) },
      changesElsewhere: { try await database.changesElsewhere() },
      putAwayReplacedValue: { try await database.putAwayReplacedValue($0) },
      saveMeetingInProgress: { try await database.saveMeetingInProgress($0) },
      discardMeetingInProgress: { try await database.discardMeetingInProgress($0) },
      keepUnreadableDataAside: { try await database.keepUnreadableDataAside() },
      checkpoint: { try await database.checkpoint() }
    )
  }

  /// Why `url` cannot hold the standups, when it cannot: what is there is a folder, a device, a
  /// named pipe or a socket, or a file stands where a folder of the path should be. `nil` when
  /// the path holds a file, a link to one or to nothing, or nothing yet.
  public static func problemWithDataFile(at url: URL) -> FileProblem? {
    guard case .notADataFile(let problem) = DataFileLocation.inspect(url.path) else { return nil }
    return problem
  }
}
