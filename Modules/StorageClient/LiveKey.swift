public import Dependencies
public import Foundation
import IdentifiedCollections
import Models

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension StorageClient: DependencyKey {
  /// Keeps the standups in ``defaultFileURL(environment:)``.
  public static var liveValue: Self {
    .file(at: defaultFileURL())
  }

  /// Keeps the standups in a JSON file.
  ///
  /// The directory is created when needed, readable only by the user. A save writes a
  /// temporary file readable only by the user, flushes it to the disk and renames it over the
  /// old one, so the file is always either the old or the new version, and a failed save leaves
  /// no temporary file behind. A symbolic link at the path is followed: the file it names is
  /// replaced and the link kept.
  ///
  /// A file that cannot be read — not permitted, a folder, a link to nothing, not standups —
  /// is never written over until ``StorageClient/keepUnreadableData`` keeps it aside: a copy
  /// named `standups.backup-<time>-<n>.json` beside it when its bytes could be read (the
  /// original stays until the next save replaces it), or the file itself moved to that name
  /// when they could not. Backup names sort by time and never collide.
  ///
  /// - Parameter url: The file's location.
  /// - Returns: A client for that file.
  public static func file(at url: URL) -> Self {
    file(at: url, fileSystem: .live)
  }

  /// Keeps the standups in a JSON file, through the given file-system calls (which a test can
  /// make fail).
  package static func file(at url: URL, fileSystem: FileSystem) -> Self {
    let file = StandupsFileStore(path: url.path, fileSystem: fileSystem)
    return Self(
      load: { try await file.load() },
      save: { try await file.save($0, basedOn: $1, revision: $2) },
      storedChange: { await file.storedChange() },
      keepUnreadableData: { try await file.keepUnreadableData() }
    )
  }

  /// Why `url` cannot hold the standups, when it cannot: what is there is a folder, a device, a
  /// named pipe or a socket, or a file stands where a folder of the path should be. `nil` when
  /// the path holds a file, a link to one or to nothing, or nothing yet.
  public static func problemWithDataFile(at url: URL) -> FileProblem? {
    guard case .notADataFile(let problem) = StandupsFileStore.target(of: url.path, in: .live)
    else { return nil }
    return problem
  }

  /// Where the standups live unless told otherwise: `standups/standups.json` in the XDG data
  /// directory (`$XDG_DATA_HOME`, or `~/.local/share`).
  public static func defaultFileURL(
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

/// The file behind ``StorageClient/file(at:)``. An actor, so that loads and saves never
/// interleave.
actor StandupsFileStore {
  let path: String
  let fileSystem: FileSystem
  private var policy = StoragePolicy()

  init(path: String, fileSystem: FileSystem) {
    self.path = path
    self.fileSystem = fileSystem
  }

  /// What is at the path, once symbolic links are followed.
  enum Target: Equatable {
    /// Nothing: a save creates the file.
    case missing
    /// A regular file, at the given path (the end of any links).
    case file(String)
    /// A symbolic link to nothing, which the app may have written through; a save replaces
    /// the link.
    case linkToNothing(FileProblem)
    /// Not something the app could have written: never moved, replaced or opened.
    case notADataFile(FileProblem)
    /// What is there could not be looked at.
    case unreadable(FileProblem)
  }

  private func target() -> Target {
    Self.target(of: path, in: fileSystem)
  }

  /// What is at `path` in `fileSystem`, following up to 16 symbolic links.
  static func target(of path: String, in fileSystem: FileSystem) -> Target {
    var current = path
    for _ in 0..<16 {
      func notADataFile(_ reason: FileProblem.Reason, _ kind: String) -> Target {
        .notADataFile(
          FileProblem(
            path: current, reason: reason, technicalDetail: "lstat: \(current) is \(kind)"))
      }
      switch fileSystem.entry(current) {
      case .success(.missing):
        return current == path
          ? .missing
          : .linkToNothing(
            FileProblem(
              path: path,
              reason: .linkToNothing,
              technicalDetail: "lstat: \(current) does not exist (the link at \(path) names it)"
            )
          )
      case .success(.file):
        return .file(current)
      case .success(.symbolicLink):
        switch fileSystem.linkTarget(current) {
        case .success(let next): current = next
        case .failure(let error): return .unreadable(error.problem(at: current))
        }
      case .success(.directory):
        return notADataFile(.isDirectory, "a directory")
      case .success(.device):
        return notADataFile(.device, "a device")
      case .success(.namedPipe):
        return notADataFile(.namedPipe, "a named pipe")
      case .success(.socket):
        return notADataFile(.socket, "a socket")
      case .failure(let error) where error.code == ENOTDIR:
        return .notADataFile(
          FileProblem(
            path: current,
            reason: .fileWhereAFolderShouldBe(fileInPlaceOfAFolder(of: current, in: fileSystem)),
            technicalDetail: "lstat: \(current): not a directory (errno \(ENOTDIR))"
          )
        )
      case .failure(let error):
        return .unreadable(error.problem(at: current))
      }
    }
    return .unreadable(SystemError(code: ELOOP, operation: "readlink").problem(at: path))
  }

  /// The first folder of `path` that is something else, usually a file.
  private static func fileInPlaceOfAFolder(of path: String, in fileSystem: FileSystem) -> String {
    var prefix = ""
    for component in path.split(separator: "/").dropLast() {
      prefix += "/\(component)"
      switch fileSystem.entry(prefix) {
      case .success(.directory), .success(.symbolicLink): continue
      default: return prefix
      }
    }
    return (path as NSString).deletingLastPathComponent
  }

  func load() throws(StorageError) -> StoredStandups {
    let data: Data
    switch target() {
    case .missing:
      policy.didLoad(.nothingToLose)
      return StoredStandups(standups: [])
    case .notADataFile(let problem):
      policy.didLoad(.notADataFile)
      throw .notADataFile(problem)
    case .linkToNothing(let problem), .unreadable(let problem):
      policy.didLoad(.unread)
      throw .unreadable(problem)
    case .file(let file):
      switch fileSystem.read(file) {
      case .success(let bytes):
        data = bytes
      case .failure(let error):
        policy.didLoad(.unread)
        throw .unreadable(error.problem(at: file))
      }
    }
    do throws(StandupsFileError) {
      let file = try StandupsFile.decode(data)
      policy.didLoad(
        file.isFromNewerRelease ? .newerRelease(file.formatVersion) : .read,
        standups: file.standups)
      return StoredStandups(standups: file.standups, formatVersion: file.formatVersion)
    } catch {
      policy.didLoad(Self.knowledge(after: error))
      throw .corrupt(error)
    }
  }

  /// What a file that could not be decoded is: from a newer release (never to be written
  /// over, not even after a backup), or unread.
  static func knowledge(after error: StandupsFileError) -> StoragePolicy.Knowledge {
    guard case .unsupportedVersion(let version) = error else { return .unread }
    return .newerRelease(version)
  }

  func save(
    _ standups: IdentifiedArrayOf<Standup>,
    basedOn: IdentifiedArrayOf<Standup>?,
    revision: Int
  ) throws(StorageError) -> SaveOutcome {
    guard !policy.isStale(revision) else { return .saved }
    try policy.checkWritable()
    let directory = (destination() as NSString).deletingLastPathComponent
    if let error = fileSystem.createDirectories(directory) {
      throw .writeFailed(error.problem(at: directory))
    }
    // NB: Every instance takes the folder's lock from its look at the stored data to its
    // rename, so that none writes between another's look and its write.
    let lock: Int32
    switch fileSystem.lock(directory) {
    case .success(let descriptor): lock = descriptor
    case .failure(let error): throw .writeFailed(error.problem(at: directory))
    }
    defer { fileSystem.unlock(lock) }
    // NB: Looked at again under the lock: before it, another instance may have created or
    // replaced the file; only the folder, where the lock is taken, is settled by the first look.
    let destination: String
    switch target() {
    case .file(let file):
      destination = file
      if let stored = try storedStandups(in: file),
        let change = policy.change(to: stored, basedOn: basedOn)
      {
        return .storedDataChanged(change)
      }
    case .missing, .linkToNothing:
      destination = path
    case .notADataFile(let problem):
      throw .notADataFile(problem)
    case .unreadable(let problem):
      throw .writeFailed(problem)
    }
    let data: Data
    do {
      data = try StandupsFile(standups: standups).encoded()
    } catch {
      throw .writeFailed(
        FileProblem(
          path: destination,
          reason: .other("the standups could not be encoded"),
          technicalDetail: "encode: \(error)"
        )
      )
    }
    let temporary =
      (directory as NSString)
      .appendingPathComponent(".\((destination as NSString).lastPathComponent).\(UUID()).tmp")
    if let error = fileSystem.writeNewFile(temporary, data) {
      // NB: A file that could not be created is the folder's doing; name the folder.
      throw .writeFailed(error.problem(at: error.operation == "open" ? directory : temporary))
    }
    if let error = fileSystem.rename(temporary, destination) {
      _ = fileSystem.remove(temporary)
      throw .writeFailed(error.problem(at: destination))
    }
    policy.didWrite(standups, revision: revision)
    return .saved
  }

  func storedChange() -> StoredChange? {
    guard policy.knowledge == .read || policy.knowledge == .nothingToLose,
      case .file(let file) = target(),
      let stored = try? storedStandups(in: file)
    else { return nil }
    return policy.change(to: stored, basedOn: nil)
  }

  /// The file a save writes: the end of any links at the path, or the path itself.
  private func destination() -> String {
    guard case .file(let file) = target() else { return path }
    return file
  }

  /// The standups stored in `file` now, to compare with what the store knows; `nil` for the
  /// unreadable data it kept aside, which a save may replace. Anything else that cannot be read
  /// is never replaced.
  private func storedStandups(in file: String) throws(StorageError) -> IdentifiedArrayOf<Standup>? {
    let data: Data
    switch fileSystem.read(file) {
    case .success(let bytes): data = bytes
    case .failure(let error): throw .writeFailed(error.problem(at: file))
    }
    let stored: StandupsFile
    do throws(StandupsFileError) {
      stored = try StandupsFile.decode(data)
    } catch {
      guard policy.knowledge == .nothingToLose else { throw .corrupt(error) }
      return nil
    }
    guard !stored.isFromNewerRelease else { throw .refused(.newerRelease(stored.formatVersion)) }
    return stored.standups
  }

  func keepUnreadableData() throws(StorageError) -> String? {
    let target = target()
    if case .notADataFile(let problem) = target { throw .notADataFile(problem) }
    guard policy.knowledge == .unread else { return nil }
    let backup: String
    switch target {
    case .file(let file):
      if case .success(let data) = fileSystem.read(file) {
        backup = try copy(data)
      } else {
        backup = try moveAside()
      }
    case .linkToNothing:
      backup = try moveAside()
    case .unreadable(let problem):
      // NB: What cannot be looked at may not be the app's to move.
      throw .backupFailed(problem)
    case .missing:
      policy.didKeepUnreadData()
      return nil
    case .notADataFile(let problem):
      throw .notADataFile(problem)
    }
    policy.didKeepUnreadData()
    return backup
  }

  /// Copies the bytes of a file that could be read but not decoded to a new backup.
  private func copy(_ data: Data) throws(StorageError) -> String {
    var attempt = 0
    while true {
      let backup = backupPath(attempt: attempt)
      guard let error = fileSystem.writeNewFile(backup, data) else { return backup }
      guard error.code == EEXIST, attempt < 999 else {
        throw .backupFailed(error.problem(at: backup))
      }
      attempt += 1
    }
  }

  /// Moves what is at the path (a file that cannot be read, a link to nothing) to a new backup
  /// name, never replacing anything there.
  private func moveAside() throws(StorageError) -> String {
    var attempt = 0
    while true {
      let backup = backupPath(attempt: attempt)
      // NB: A second name never replaces anything; the first is removed once it exists.
      let error = fileSystem.link(path, backup) ?? fileSystem.remove(path)
      guard let error else { return backup }
      guard error.code == EEXIST, attempt < 999 else {
        throw .backupFailed(error.problem(at: backup))
      }
      attempt += 1
    }
  }

  /// `standups.backup-20261122T093000.123Z-000.json` beside the file: names sort by time, and
  /// `attempt` tells apart backups made in the same millisecond.
  private func backupPath(attempt: Int) -> String {
    let name = (path as NSString).lastPathComponent
    let stem = (name as NSString).deletingPathExtension
    let pathExtension = (name as NSString).pathExtension
    let stamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
      .filter { $0 != "-" && $0 != ":" }
    let backup = "\(stem).backup-\(stamp)-\(String(format: "%03d", attempt))"
    return ((path as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent(pathExtension.isEmpty ? backup : "\(backup).\(pathExtension)")
  }
}
