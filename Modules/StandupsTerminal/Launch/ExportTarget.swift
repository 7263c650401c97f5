import Foundation
import StorageClient

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `standups export --output` writes: the file a path names, through any symbolic links.
///
/// An export replaces its file whole: it is written under a name of its own beside the file,
/// readable only by the user, flushed, then renamed over it, so the file is never half written
/// and never more readable than the database it came from. It is never the database: a path
/// that names the database, or its `-wal`, `-shm` or `-journal` file, under any name (a link), is
/// refused before anything is written.
///
/// ```swift
/// let target = ExportTarget("backup.json")
/// target.isOneOfTheFiles(ofDatabaseAt: database.path)  // false
/// target.write(json)  // nil: written
/// ```
struct ExportTarget {
  /// The file written: the end of any symbolic links at the path given.
  let path: String

  init(_ path: String) {
    var current = path
    for _ in 0..<16 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(current, &buffer, buffer.count - 1)
      guard count > 0 else { break }
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        target.hasPrefix("/")
        ? target
        : ((current as NSString).deletingLastPathComponent as NSString)
          .appendingPathComponent(target)
    }
    self.path = current
  }

  /// Whether this is the database at `database` or one of the files SQLite keeps beside it, by
  /// device and inode where the file exists, by path where it does not.
  func isOneOfTheFiles(ofDatabaseAt database: String) -> Bool {
    let resolved = ExportTarget(database).path
    let files = [resolved, resolved + "-wal", resolved + "-shm", resolved + "-journal"]
    if files.contains(path) { return true }
    var output = stat()
    guard stat(path, &output) == 0 else { return false }
    return files.contains { file in
      var status = stat()
      return stat(file, &status) == 0 && status.st_dev == output.st_dev
        && status.st_ino == output.st_ino
    }
  }

  /// Writes `data` in place of the file, whole; returns why not when it cannot, in the system's
  /// words.
  func write(_ data: Data) -> FileProblem? {
    let fileSystem = FileSystem.live
    let folder = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    let written = (folder.isEmpty ? "." : folder as NSString)
      .appendingPathComponent(".\(name).export-\(getpid())-\(UUID().uuidString)")
    if let error = fileSystem.writeNewFile(written, data) {
      return error.problem(at: path)
    }
    if let error = fileSystem.rename(written, path) {
      _ = fileSystem.remove(written)
      return error.problem(at: path)
    }
    return nil
  }
}
