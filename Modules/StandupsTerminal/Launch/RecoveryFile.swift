public import Foundation
public import IdentifiedCollections
public import Models

/// Standups that could not be saved to the data file when the app had to stop, kept in the
/// state folder so that nothing is lost: a data file in the usual format, which
/// `standups --data-file` opens.
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
  /// the user) when needed. Never replaces a file.
  ///
  /// - Returns: The file written.
  public static func write(
    _ standups: IdentifiedArrayOf<Standup>,
    in folder: URL,
    at date: Date
  ) throws -> URL {
    try FileManager.default.createDirectory(
      at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let data = try StandupsFile(standups: standups).encoded()
    let stamp = Date.ISO8601FormatStyle().format(date).filter { $0 != "-" && $0 != ":" }
    var attempt = 0
    while true {
      let suffix = attempt == 0 ? "" : "-\(attempt)"
      let file = folder.appendingPathComponent("\(prefix)\(stamp)\(suffix).json")
      do {
        try data.write(to: file, options: .withoutOverwriting)
      } catch let error as CocoaError where error.code == .fileWriteFileExists && attempt < 999 {
        attempt += 1
        continue
      }
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
      return file
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
