// The JSON file store of the releases before the database, kept here only so that the storage
// benchmarks measure it beside the database in one run (Benchmarks/README.md). Its code is the
// store's as it was, with its types renamed; it is removed once the figures are recorded.

import Foundation
import IdentifiedCollections
import Models
import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct JSONStoredStandups: Equatable, Sendable {
  var standups: IdentifiedArrayOf<Standup>
  var formatVersion: Int
}

enum JSONSaveOutcome: Equatable, Sendable {
  case saved
  case storedDataChanged(JSONStoredChange)
}

struct JSONStoredChange: Equatable, Sendable {
  var known: IdentifiedArrayOf<Standup>
  var stored: IdentifiedArrayOf<Standup>
}

enum JSONStorageError: Error, Equatable, Sendable {
  case corrupt(StandupsFileError)
  case notADataFile(FileProblem)
  case unreadable(FileProblem)
  case writeFailed(FileProblem)
  case refused(Refusal)
  case backupFailed(FileProblem)

  enum Refusal: Equatable, Sendable {
    case unreadDataInTheWay
    case newerRelease(Int)
    case notADataFile
  }
}

/// The rules that keep stored data safe, shared by every store so that they are written once:
/// what the store knows about its data decides whether it may be written over, and revisions
/// decide whether a write is stale.
struct JSONStoragePolicy: Sendable {
  /// What the store knows about the data it would write over.
  enum Knowledge: Equatable, Sendable {
    /// Nothing yet: the data has not been looked at.
    case unknown
    /// There is no data, or it was kept aside: writing loses nothing.
    case nothingToLose
    /// The data was read, in the current format.
    case read
    /// The data was read, but comes from a newer release.
    case newerRelease(Int)
    /// The data exists but could not be read.
    case unread
    /// What is at the path is not a data file: it is never written.
    case notADataFile
  }

  private(set) var knowledge = Knowledge.unknown
  private var lastRevision: Int?
  /// The standups as the store last read or wrote them: what a save may replace.
  private var known: IdentifiedArrayOf<Standup> = []

  /// Records what loading found, and the standups read.
  mutating func didLoad(_ knowledge: Knowledge, standups: IdentifiedArrayOf<Standup> = []) {
    self.knowledge = knowledge
    known = standups
  }

  /// How the stored standups changed behind the store's back, if they did: they are neither
  /// what it last read or wrote nor what the caller merged (`basedOn`).
  func change(
    to stored: IdentifiedArrayOf<Standup>,
    basedOn: IdentifiedArrayOf<Standup>?
  ) -> JSONStoredChange? {
    guard stored != known, stored != basedOn else { return nil }
    return JSONStoredChange(known: known, stored: stored)
  }

  /// Whether a save of `revision` comes too late: that revision, or a later one, was written.
  func isStale(_ revision: Int) -> Bool {
    lastRevision.map { revision <= $0 } ?? false
  }

  /// Refuses a save that would write over data the store has not read (or not yet looked at:
  /// the caller loads first, so that it can merge what is there), or data from a newer release.
  func checkWritable() throws(JSONStorageError) {
    switch knowledge {
    case .newerRelease(let version):
      throw .refused(.newerRelease(version))
    case .notADataFile:
      throw .refused(.notADataFile)
    case .unread, .unknown:
      throw .refused(.unreadDataInTheWay)
    case .nothingToLose, .read:
      return
    }
  }

  /// Records a successful write of `standups`.
  mutating func didWrite(_ standups: IdentifiedArrayOf<Standup>, revision: Int) {
    lastRevision = revision
    knowledge = .read
    known = standups
  }

  /// Records that unread data was kept aside, so that it may be written over.
  mutating func didKeepUnreadData() {
    knowledge = .nothingToLose
    known = []
  }
}

/// The file behind ``StorageClient/file(at:)``. An actor, so that loads and saves never
/// interleave.
actor JSONFileStore {
  let path: String
  let fileSystem: FileSystem
  private var policy = JSONStoragePolicy()

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

  func load() throws(JSONStorageError) -> JSONStoredStandups {
    let data: Data
    switch target() {
    case .missing:
      policy.didLoad(.nothingToLose)
      return JSONStoredStandups(standups: [], formatVersion: 1)
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
      return JSONStoredStandups(standups: file.standups, formatVersion: file.formatVersion)
    } catch {
      policy.didLoad(Self.knowledge(after: error))
      throw .corrupt(error)
    }
  }

  /// What a file that could not be decoded is: from a newer release (never to be written
  /// over, not even after a backup), or unread.
  static func knowledge(after error: StandupsFileError) -> JSONStoragePolicy.Knowledge {
    guard case .unsupportedVersion(let version) = error else { return .unread }
    return .newerRelease(version)
  }

  func save(
    _ standups: IdentifiedArrayOf<Standup>,
    basedOn: IdentifiedArrayOf<Standup>?,
    revision: Int
  ) throws(JSONStorageError) -> JSONSaveOutcome {
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

  func storedChange() -> JSONStoredChange? {
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
  private func storedStandups(in file: String) throws(JSONStorageError) -> IdentifiedArrayOf<
    Standup
  >? {
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

  func keepUnreadableData() throws(JSONStorageError) -> String? {
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
  private func copy(_ data: Data) throws(JSONStorageError) -> String {
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
  private func moveAside() throws(JSONStorageError) -> String {
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
