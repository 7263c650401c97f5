public import Dependencies
public import Foundation
import IdentifiedCollections
import Models

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension StorageClient: DependencyKey {
  /// Keeps the standups in ``defaultFileURL``.
  public static var liveValue: Self {
    .file(at: defaultFileURL())
  }

  /// Keeps the standups in a JSON file.
  ///
  /// The directory is created when needed. Saves write a temporary file readable only by the
  /// user and rename it over the old one, so the file is always either the old or the new
  /// version. A file that cannot be read is copied to a `.corrupt-<time>.json` backup beside it
  /// before the first save replaces it.
  ///
  /// - Parameter url: The file's location.
  /// - Returns: A client for that file.
  public static func file(at url: URL) -> Self {
    let file = StandupsFileStore(url: url)
    return Self(
      load: { try await file.load() },
      save: { try await file.save($0) }
    )
  }

  /// Where the standups live unless told otherwise: `standups/standups.json` in the XDG data
  /// directory (`$XDG_DATA_HOME`, or `~/.local/share`).
  public static func defaultFileURL(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    let dataHome: URL
    if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
      dataHome = URL(fileURLWithPath: xdg, isDirectory: true)
    } else if let home = environment["HOME"], !home.isEmpty {
      dataHome = URL(fileURLWithPath: home, isDirectory: true)
        .appendingPathComponent(".local/share", isDirectory: true)
    } else {
      dataHome = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
    return dataHome.appendingPathComponent("standups/standups.json")
  }
}

/// The file behind ``StorageClient/file(at:)``. An actor, so that saves never interleave.
actor StandupsFileStore {
  let url: URL
  /// Whether the file on disk is known to be absent or readable, so that it can be replaced
  /// without a backup.
  private var isKnownReadable = false

  init(url: URL) {
    self.url = url
  }

  func load() throws -> IdentifiedArrayOf<Standup> {
    guard FileManager.default.fileExists(atPath: url.path) else {
      isKnownReadable = true
      return []
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw StorageError.readFailed(error.localizedDescription)
    }
    do throws(StandupsFileError) {
      let standups = try StandupsFile.decode(data).standups
      isKnownReadable = true
      return standups
    } catch {
      isKnownReadable = false
      throw StorageError.corrupt(error)
    }
  }

  func save(_ standups: IdentifiedArrayOf<Standup>) throws {
    let directory = url.deletingLastPathComponent()
    do {
      try FileManager.default.createDirectory(
        at: directory,
        withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700]
      )
    } catch {
      throw StorageError.writeFailed(
        "could not create \(directory.path): \(error.localizedDescription)"
      )
    }
    if !isKnownReadable {
      try backUpIfUnreadable()
    }
    let data: Data
    do {
      data = try StandupsFile(standups: standups).encoded()
    } catch {
      throw StorageError.writeFailed("could not encode the standups: \(error)")
    }
    try replaceFile(with: data)
    isKnownReadable = true
  }

  /// Copies the current file aside when it exists and cannot be read as standups, and refuses
  /// to replace a file it cannot even open.
  private func backUpIfUnreadable() throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw StorageError.writeFailed(
        """
        the existing file could not be opened (\(error.localizedDescription)), so it was not \
        replaced
        """
      )
    }
    guard (try? StandupsFile.decode(data)) == nil else { return }
    let stamp = Date().formatted(
      .iso8601.year().month().day().time(includingFractionalSeconds: false)
    )
    .replacingOccurrences(of: ":", with: "")
    let backup = url.deletingPathExtension()
      .appendingPathExtension("corrupt-\(stamp)")
      .appendingPathExtension(url.pathExtension)
    do {
      try FileManager.default.copyItem(at: url, to: backup)
    } catch {
      throw StorageError.writeFailed(
        """
        the existing file cannot be read and could not be backed up to \(backup.path) \
        (\(error.localizedDescription)), so it was left as it is
        """
      )
    }
  }

  /// Writes `data` to a temporary file beside the target and renames it into place.
  private func replaceFile(with data: Data) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw StorageError.writeFailed("could not create \(temporary.path): \(lastErrorMessage())")
    }
    var succeeded = false
    defer {
      if !succeeded { unlink(temporary.path) }
    }
    let written = data.withUnsafeBytes { buffer -> Bool in
      var offset = 0
      while offset < buffer.count {
        let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += result
      }
      return true
    }
    guard written, fsync(descriptor) == 0 else {
      let message = lastErrorMessage()
      close(descriptor)
      throw StorageError.writeFailed("could not write \(temporary.path): \(message)")
    }
    guard close(descriptor) == 0 else {
      throw StorageError.writeFailed("could not write \(temporary.path): \(lastErrorMessage())")
    }
    guard rename(temporary.path, url.path) == 0 else {
      throw StorageError.writeFailed("could not replace \(url.path): \(lastErrorMessage())")
    }
    succeeded = true
  }
}

private func lastErrorMessage() -> String {
  String(cString: strerror(errno))
}
