public import Foundation
public import IdentifiedCollections
public import Models
public import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standups that could not be saved to the database when the app had to stop, kept in a file so
/// that nothing is lost: the JSON file format, which `standups import` brings back.
///
/// A recovery file is written before it is promised: the app names a place only once a file is
/// there. The places are tried in order (``places(state:database:environment:)``): the state
/// folder, the database's folder, then a folder of this user's for this database in the
/// temporary folder. Every launch names the files it finds in them.
///
/// ```swift
/// let places = RecoveryFile.places(state: folders.state, database: url, environment: environment)
/// let file = try RecoveryFile.write(standups, in: places, at: Date())
/// // next launch:
/// RecoveryFile.existing(in: places)  // [file]
/// ```
public enum RecoveryFile {
  /// Where a recovery file may go, in the order to try them: the state folder, the database's
  /// folder, then ``temporaryPlace(for:in:)`` in `$TMPDIR` (or `/tmp`).
  public static func places(
    state: URL?,
    database: URL,
    environment: [String: String]
  ) -> [URL] {
    let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    var places: [URL] = []
    for case let place? in [
      state, database.deletingLastPathComponent(),
      temporaryPlace(for: database, in: URL(fileURLWithPath: temporary, isDirectory: true)),
    ]
    where !places.contains(where: { $0.path == place.path }) {
      places.append(place)
    }
    return places
  }

  /// Writes `standups` to a new recovery file in the first of `places` that takes one, creating
  /// the folder (readable only by the user) when needed: readable only by the user, flushed to
  /// the disk. Never replaces a file.
  ///
  /// - Returns: The file written.
  /// - Throws: What went wrong in each place, when none took it.
  public static func write(
    _ standups: IdentifiedArrayOf<Standup>,
    in places: [URL],
    at date: Date
  ) throws(RecoveryFailure) -> URL {
    let data: Data
    do {
      data = try StandupsFile(standups: standups).encoded()
    } catch {
      throw RecoveryFailure(problems: [
        FileProblem(
          path: "", reason: .other("the standups could not be encoded"),
          technicalDetail: "encode: \(error)")
      ])
    }
    var problems: [FileProblem] = []
    for place in places {
      do throws(FileProblem) {
        return try write(data, in: place, at: date)
      } catch {
        problems.append(error)
      }
    }
    throw RecoveryFailure(problems: problems)
  }

  /// The recovery place for `database` in the temporary folder: a folder named for this user and
  /// this database.
  ///
  /// Why: the temporary folder is every user's and every program's. A file left there for one
  /// database must not be announced by an instance of another database, or of another home,
  /// as its own; and another user must not be able to remove it. So the folder is this user's,
  /// readable by no one else (checked before writing), and its name carries a digest of the
  /// database's path.
  ///
  /// ```swift
  /// RecoveryFile.temporaryPlace(for: URL(fileURLWithPath: "/home/blob/standups.sqlite"),
  ///                             in: URL(fileURLWithPath: "/tmp"))
  /// // /tmp/standups-1000-d7f42854faacb0da: user 1000, then the digest of the path
  /// ```
  public static func temporaryPlace(for database: URL, in temporary: URL) -> URL {
    let path = database.standardizedFileURL.path
    // NB: FNV-1a, not `Hasher`, whose seed changes with every launch: the next launch must find
    // the folder this one named.
    var digest: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 {
      digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let hex = String(digest, radix: 16)
    let name = "\(temporaryPrefix)\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    return temporary.appendingPathComponent(name, isDirectory: true)
  }

  private static var temporaryPrefix: String { "standups-\(getuid())-" }

  private static func write(_ data: Data, in folder: URL, at date: Date) throws(FileProblem) -> URL
  {
    let fileSystem = FileSystem.live
    if let error = fileSystem.createDirectories(folder.path) {
      throw error.problem(at: folder.path)
    }
    if folder.lastPathComponent.hasPrefix(temporaryPrefix), !isPrivateToThisUser(folder) {
      throw FileProblem(
        path: folder.path, reason: .other("the folder is not this user's alone"),
        technicalDetail: "lstat: not a directory of uid \(getuid()) with mode 0700")
    }
    let stamp = Date.ISO8601FormatStyle().format(date).filter { $0 != "-" && $0 != ":" }
    var attempt = 0
    while true {
      let suffix = attempt == 0 ? "" : "-\(attempt)"
      let file = folder.appendingPathComponent("\(prefix)\(stamp)\(suffix).json")
      guard let error = fileSystem.writeNewFile(file.path, data) else { return file }
      guard error.code == EEXIST, attempt < 999 else { throw error.problem(at: file.path) }
      attempt += 1
    }
  }

  /// This user's recovery files in `places`, oldest first.
  public static func existing(in places: [URL]) -> [URL] {
    places.flatMap { folder in
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
        .map { folder.appendingPathComponent($0) }
        .filter { isOwnedByThisUser($0) }
    }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  private static func isOwnedByThisUser(_ file: URL) -> Bool {
    var status = stat()
    return stat(file.path, &status) == 0 && status.st_uid == getuid()
  }

  /// Whether `folder` is a directory, not a link to one, that only this user can enter: one
  /// another user made in the temporary folder before this one is refused.
  private static func isPrivateToThisUser(_ folder: URL) -> Bool {
    var status = stat()
    return lstat(folder.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
      && status.st_uid == getuid() && status.st_mode & 0o077 == 0
  }

  private static let prefix = "unsaved-standups-"
}

/// No place took a recovery file.
public struct RecoveryFailure: Error, Equatable, CustomStringConvertible {
  /// What went wrong in each place tried, in order.
  public var problems: [FileProblem]

  /// The problems, for people.
  public var description: String {
    problems.isEmpty
      ? "there was nowhere to try"
      : problems.map(\.description).joined(separator: "; ")
  }
}
