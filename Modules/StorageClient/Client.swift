public import Dependencies
public import DependenciesMacros
public import IdentifiedCollections
public import Models

/// Loads and saves the standups.
///
/// The client owns the rules that keep the user's data safe. It never writes over stored data
/// it has not read: saves are refused until the data has been loaded. A missing store loads as
/// no standups and can be written. Stored data that cannot be read, or is not standups, fails
/// to load, and every save is refused until the app, at the user's request, keeps it aside as a
/// backup with ``keepUnreadableData``. Data from a newer release is never written over, and
/// cannot be kept aside: it loads when this release understands it, and fails with
/// ``StandupsFileError/unsupportedVersion(_:)`` when it does not. A save never replaces a newer
/// one: each carries a revision, and an older revision that arrives late is skipped.
///
/// And a save never writes over someone else's changes. Several instances of the app (or an
/// editor) may share the data; the client remembers what it last read or wrote, and a save
/// writes only while the stored data is still that (or what the caller says it merged). When
/// it is not, the save writes nothing and returns ``SaveOutcome/storedDataChanged(_:)`` with
/// both, for the caller to merge (`applyingChanges(from:to:)`) and save again.
///
/// ```swift
/// @Dependency(\.storageClient) var storage
///
/// let stored = try await storage.load()
/// switch try await storage.save(edited, nil, 1) {
/// case .saved: break
/// case .storedDataChanged(let change):
///   let merged = change.stored.applyingChanges(from: change.known, to: edited)
///   _ = try await storage.save(merged, change.stored, 2)
/// }
/// ```
@DependencyClient
public struct StorageClient: Sendable {
  /// Loads the standups. No stored data loads as an empty list; other failures throw a
  /// ``StorageError``.
  public var load: @Sendable () async throws -> StoredStandups

  /// Replaces the stored standups, atomically, unless they changed since this client last read
  /// or wrote them: a failed save leaves the previous data intact.
  ///
  /// - `standups`: what to store.
  /// - `basedOn`: the stored standups the caller merged into `standups` after a
  ///   ``SaveOutcome/storedDataChanged(_:)``, which may then be replaced too; `nil` otherwise.
  /// - `revision`: a save whose revision is not higher than the last one written does nothing,
  ///   so that a write scheduled earlier can never land after a later one.
  ///
  /// Returns whether it wrote, or what the stored data became meanwhile. Throws a
  /// ``StorageError``.
  public var save:
    @Sendable (
      _ standups: IdentifiedArrayOf<Standup>,
      _ basedOn: IdentifiedArrayOf<Standup>?,
      _ revision: Int
    ) async throws -> SaveOutcome

  /// What the stored data became, when it changed since this client last read or wrote it
  /// (another instance saved, an editor changed the file); `nil` otherwise. Looking changes
  /// nothing the client knows, so a save still finds the change until it is merged.
  public var storedChange: @Sendable () async throws -> StoredChange?

  /// Keeps the stored data that could not be read as a backup beside it, after which saves may
  /// replace it; returns where the backup is, or `nil` when no data was in the way. Throws a
  /// ``StorageError``.
  public var keepUnreadableData: @Sendable () async throws -> String?
}

/// What came of ``StorageClient/save``.
public enum SaveOutcome: Equatable, Sendable {
  /// The standups were written, or a later revision was already.
  case saved
  /// Nothing was written: the stored standups changed since the client last read or wrote them.
  case storedDataChanged(StoredChange)
}

/// Stored standups that changed behind the client's back.
public struct StoredChange: Equatable, Sendable {
  /// The standups as the client last read or wrote them.
  public var known: IdentifiedArrayOf<Standup>
  /// The standups stored now.
  public var stored: IdentifiedArrayOf<Standup>

  /// Creates a change.
  public init(known: IdentifiedArrayOf<Standup>, stored: IdentifiedArrayOf<Standup>) {
    self.known = known
    self.stored = stored
  }
}

/// What ``StorageClient/load`` read.
public struct StoredStandups: Equatable, Sendable {
  /// The standups, in order.
  public var standups: IdentifiedArrayOf<Standup>

  /// The format version of the stored data. Above ``StandupsFile/currentFormatVersion``, the
  /// data comes from a newer release: it can be shown, but the client refuses to write over it.
  public var formatVersion: Int

  /// Creates a load result.
  public init(
    standups: IdentifiedArrayOf<Standup>,
    formatVersion: Int = StandupsFile.currentFormatVersion
  ) {
    self.standups = standups
    self.formatVersion = formatVersion
  }

  /// Whether the data comes from a newer release and is read-only.
  public var isFromNewerRelease: Bool {
    formatVersion > StandupsFile.currentFormatVersion
  }
}

/// Why loading or saving failed, in words for people; the system's own words are kept in
/// ``technicalDetail`` for logs.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The stored data exists but is not standups this release can read.
  case corrupt(StandupsFileError)
  /// What is at the data file's path is not a file the app could have written — a folder, a
  /// device, a named pipe, a socket — or a file stands where a folder of the path should be.
  /// It is never moved, replaced or opened for writing.
  case notADataFile(FileProblem)
  /// The stored data could not be read at all.
  case unreadable(FileProblem)
  /// The standups could not be written; the previous data is untouched.
  case writeFailed(FileProblem)
  /// The standups were not written, to keep the stored data safe.
  case refused(Refusal)
  /// The data that could not be read could not be kept aside, so nothing was written.
  case backupFailed(FileProblem)

  /// Why a save was refused.
  public enum Refusal: Equatable, Sendable {
    /// The stored data was not read and has not been kept aside.
    case unreadDataInTheWay
    /// The stored data comes from a newer release, with this format version.
    case newerRelease(Int)
    /// What is at the path is not a data file (see ``StorageError/notADataFile(_:)``).
    case notADataFile
  }

  /// A sentence for people.
  public var description: String {
    switch self {
    case .corrupt(let error):
      "The saved standups could not be read. \(error)"
    case .notADataFile(let problem):
      "The standups cannot be kept there: \(problem). The app leaves it as it is."
    case .unreadable(let problem):
      "The saved standups could not be opened: \(problem)."
    case .writeFailed(let problem):
      "The standups could not be saved: \(problem). The previously saved standups are untouched."
    case .refused(.unreadDataInTheWay):
      """
      The standups were not saved, because the file they would replace could not be read and \
      has not been kept aside.
      """
    case .refused(.notADataFile):
      "The standups were not saved: what is at the data file's path is not a file."
    case .refused(.newerRelease):
      """
      The standups were not saved: the file was written by a newer release of Standups, and \
      saving it in this release's format would lose what that release added. It is open \
      read-only.
      """
    case .backupFailed(let problem):
      "The unreadable file could not be kept aside (\(problem)), so nothing was written."
    }
  }

  /// What the system said, for logs: the operation, the path and the error number.
  public var technicalDetail: String {
    switch self {
    case .corrupt(let error): "decoding failed: \(error)"
    case .unreadable(let problem), .writeFailed(let problem), .backupFailed(let problem),
      .notADataFile(let problem):
      problem.technicalDetail
    case .refused(.notADataFile): "save refused: the path is not a data file"
    case .refused(.unreadDataInTheWay): "save refused: the stored data was not read"
    case .refused(.newerRelease(let version)): "save refused: stored format version \(version)"
    }
  }
}

/// A file-system operation that failed: where, why in words, and what the system said.
public struct FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path the operation was on.
  public var path: String
  /// Why it failed.
  public var reason: Reason
  /// The system's words, for logs, such as `write: No space left on device (errno 28)`.
  public var technicalDetail: String

  /// Why a file-system operation failed.
  public enum Reason: Equatable, Sendable {
    case device
    case diskFull
    case doesNotExist
    /// This file is where a folder of the path should be.
    case fileWhereAFolderShouldBe(String)
    case inputOutputError
    case isDirectory
    case linkToNothing
    case namedPipe
    case notADirectory
    case permissionDenied
    case quotaExceeded
    case readOnlyDisk
    case socket
    /// Any other failure, in the system's words.
    case other(String)
  }

  /// Creates a problem report.
  public init(path: String, reason: Reason, technicalDetail: String) {
    self.path = path
    self.reason = reason
    self.technicalDetail = technicalDetail
  }

  /// The reason and the path, for people: `the disk is full (/home/blob/standups.json)`.
  public var description: String {
    path.isEmpty ? reasonDescription : "\(reasonDescription) (\(path))"
  }

  private var reasonDescription: String {
    switch reason {
    case .device: "it is a device, not a file"
    case .diskFull: "the disk is full"
    case .doesNotExist: "it does not exist"
    case .fileWhereAFolderShouldBe(let file): "\(file) is a file, where a folder should be"
    case .inputOutputError: "the disk reported an input/output error"
    case .isDirectory: "it is a folder, not a file"
    case .linkToNothing: "it is a symbolic link to a file that does not exist"
    case .namedPipe: "it is a named pipe, not a file"
    case .notADirectory: "a folder on its path is a file"
    case .permissionDenied: "permission denied"
    case .quotaExceeded: "the disk quota is used up"
    case .readOnlyDisk: "the disk is read-only"
    case .socket: "it is a socket, not a file"
    case .other(let words): words
    }
  }
}

extension DependencyValues {
  /// Loads and saves the standups. See ``StorageClient``.
  public var storageClient: StorageClient {
    get { self[StorageClient.self] }
    set { self[StorageClient.self] = newValue }
  }
}
