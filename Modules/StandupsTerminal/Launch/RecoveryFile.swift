public import Foundation
public import IdentifiedCollections
public import Models
public import StorageClient

/// Standups that could not be saved to the data file when the app had to stop, kept in the
/// state folder so that nothing is lost: the standups in the JSON file format, which
/// `standups import` brings back into the database.
///
/// The app writes one when it exits with changes it could not save (the data folder is
/// read-only, the data could not be loaded, the disk is full), says where on standard error,
/// and names it again at every launch while it is there.
///
/// ```swift
/// let file = try RecoveryFile.write(standups, in: folder, at: Date())
/// // next launch:
/// RecoveryFile.existing(in: folder)  // [file]
/// ```
public enum RecoveryFile {
  /// Writes `standups` to a new recovery file in `folder`, creating the folder (readable only by
  /// the user) when needed: readable only by the user, flushed to the disk, as the data file
  /// is (`FileSystem.writeNewFile`). Never replaces a file.
  ///
  /// - Returns: The file written.
  public static func write(
    _ standups: IdentifiedArrayOf<Standup>,
    in folder: URL,
    at date: Date
  ) throws(FileProblem) -> URL {
    let fileSystem = FileSystem.live
    if let error = fileSystem.createDirectories(folder.path) {
      throw error.problem(at: folder.path)
    }
    let data: Data
    do {
      data = try StandupsFile(standups: standups).encoded()
    } catch {
      throw FileProblem(
        path: folder.path, reason: .other("the standups could not be encoded"),
        technicalDetail: "encode: \(error)")
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

  /// The recovery files in `folder`, oldest first.
  public static func existing(in folder: URL) -> [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
      .map { folder.appendingPathComponent($0) }
  }

  private static let prefix = "unsaved-standups-"
}
