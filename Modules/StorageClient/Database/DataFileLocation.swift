import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at the database's path, looked at before SQLite opens anything there: SQLite would
/// happily open a named pipe, and create a database inside a folder it was given by mistake.
enum DataFileLocation: Equatable {
  /// Nothing yet: opening creates the database here (the end of any links).
  case missing(String)
  /// A regular file, at the given path (the end of any links).
  case file(String)
  /// A symbolic link to nothing: something was meant to be there, so it is treated as data
  /// that cannot be read, moved aside only when the user asks.
  case linkToNothing(FileProblem)
  /// Not something the app could have made: never moved, replaced or opened.
  case notADataFile(FileProblem)
  /// What is there could not be looked at.
  case unreadable(FileProblem)

  /// What is at `path`, following up to 16 symbolic links.
  static func inspect(_ path: String, in fileSystem: FileSystem = .live) -> Self {
    var current = path
    for _ in 0..<16 {
      func notADataFile(_ reason: FileProblem.Reason, _ kind: String) -> Self {
        .notADataFile(
          FileProblem(
            path: current, reason: reason, technicalDetail: "lstat: \(current) is \(kind)"))
      }
      switch fileSystem.entry(current) {
      case .success(.missing):
        return current == path
          ? .missing(path)
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

  /// Why a database at `file` may only be read, if it may: the file or its folder is marked
  /// read-only — for everyone, so that even root leaves it alone, as the user meant — or this
  /// user may not write it, or the disk is read-only.
  static func readOnlyReason(ofFileAt file: String) -> ReadOnlyReason? {
    if !isMarkedWritable(file) { return .readOnlyFile(path: file) }
    let folder = (file as NSString).deletingLastPathComponent
    // NB: A write in WAL mode makes `-wal` and `-shm` files beside the database.
    if !isMarkedWritable(folder) { return .readOnlyFolder(path: folder) }
    return nil
  }

  /// Whether a new database can be made in `folder` (which exists); `nil` when it can.
  static func readOnlyReason(ofFolder folder: String) -> ReadOnlyReason? {
    isMarkedWritable(folder) ? nil : .readOnlyFolder(path: folder)
  }

  /// Whether what is at `path` can be given another name beside it: its folder may be written.
  static func isMovableAside(_ path: String) -> Bool {
    isMarkedWritable((path as NSString).deletingLastPathComponent)
  }

  /// Whether `path` has a write permission bit and this user may write it.
  private static func isMarkedWritable(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return status.st_mode & 0o222 != 0 && access(path, W_OK) == 0
  }
}
