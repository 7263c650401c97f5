import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file the database is: its device and inode, read when it is opened, so that a read of
/// changes elsewhere can tell when the path names another file, or none.
///
/// SQLite keeps a database open by its file descriptor: once the file at the path is removed,
/// moved or replaced (`rm`, `mv`, a restore from a backup), every commit still succeeds, into a
/// file, and a `-wal` beside it, that the user will never open again. A hard link is as bad the
/// other way: SQLite names the log after the path it opened, so two instances on two names of
/// one file keep two logs of one database.
///
/// ```swift
/// let opened = FileIdentity(ofFileAt: path)
/// opened?.problem(ofFileNowAt: path)  // nil while it is still the file there
/// ```
struct FileIdentity: Equatable {
  var device: UInt64
  var inode: UInt64
  /// How many names the file had.
  var links: UInt64

  /// The file at `path` (following symbolic links), or `nil` when there is none.
  init?(ofFileAt path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
    links = UInt64(status.st_nlink)
  }

  /// Why the file at `path` is not this one, or `nil` when it is.
  func problem(ofFileNowAt path: String) -> FileProblem? {
    guard let now = FileIdentity(ofFileAt: path) else {
      return FileProblem(
        path: path, reason: .replaced("it was removed or moved away"),
        technicalDetail: "stat: \(String(cString: strerror(errno))) (errno \(errno))")
    }
    guard now.device == device, now.inode == inode else {
      return FileProblem(
        path: path, reason: .replaced("another file was put in its place"),
        technicalDetail: "stat: device \(now.device) inode \(now.inode), "
          + "opened device \(device) inode \(inode)")
    }
    return nil
  }
}
