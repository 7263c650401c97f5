public import Foundation
import IdentifiedCollections
public import Models
public import StorageClient

/// `standups export` and `standups import`: the standups as a JSON file (the file format of
/// earlier releases, `StandupsFile`), out of the database and into it.
///
/// Export only reads: nothing in the database changes, not even a meeting a crash interrupted.
/// Import merges, in one transaction, and never removes anything
/// (``StandupsDatabase/importStandups(_:from:)``): a recovery file, an old data file or a
/// hand-edited export can be brought in any number of times.
///
/// ```swift
/// let json = try await DataFileCommands.export(from: database)
/// let report = try await DataFileCommands.importFile("unsaved.json", into: database)
/// print(report)  // Added 1 standup: "Design". 2 standups already there, unchanged.
/// ```
public enum DataFileCommands {
  /// What `standups export` writes, and what it has to say about it.
  public struct Export: Equatable, Sendable {
    /// The standups in the JSON file format.
    public var json: Data
    /// Sentences for standard error: standups that cannot be read and were left out, meetings
    /// being recorded now (not in it), meetings a crash stopped (in it, as past meetings).
    public var notes: [String]
    /// Whether standups were left out because they cannot be read: the command then exits 65
    /// after writing what it could.
    public var isIncomplete: Bool
  }

  /// The standups of the database at `database`, in the JSON file format.
  ///
  /// - Throws: ``DataFileError/unreadableDatabase(_:)`` when there is no database there, or it
  ///   cannot be read.
  public static func export(from database: URL) async throws(DataFileError) -> Export {
    if let problem = StorageClient.problemWithDataFile(at: database) {
      throw .notADataFile(problem)
    }
    let contents: DatabaseContents
    do throws(StorageError) {
      contents = try await StandupsDatabase(path: database.path).contents()
    } catch {
      throw .unreadableDatabase(error)
    }
    let json: Data
    do {
      json = try StandupsFile(standups: contents.standups).encoded()
    } catch {
      throw .unwritableOutput(
        FileProblem(
          path: "", reason: .other("the standups could not be encoded"),
          technicalDetail: "encode: \(error)"))
    }
    var notes: [String] = []
    for unreadable in contents.unreadable {
      notes.append("Left out: \(unreadable), and left as it is in the database.")
    }
    for title in contents.meetingsBeingRecorded {
      notes.append(
        "A meeting of \(MessageText.quoted(title)) is being recorded by a running instance of "
          + "Standups; it is not in this export until it is kept.")
    }
    for title in contents.interruptedMeetings {
      notes.append(
        "The meeting of \(MessageText.quoted(title)) that stopped before it ended is in this "
          + "export as a past meeting, as the next launch keeps it.")
    }
    return Export(json: json, notes: notes, isIncomplete: !contents.unreadable.isEmpty)
  }

  /// Writes an export to `file`, replacing it whole (never leaving it half written), as a new
  /// file readable only by the user, as the database is; a symbolic link at `file` is followed.
  ///
  /// - Throws: ``DataFileError/outputIsTheDatabase(_:)`` when `file` is the database at
  ///   `database`, or one of its `-wal`, `-shm` or `-journal` files, under any name;
  ///   ``DataFileError/unwritableOutput(_:)`` with the system's reason when the file cannot be
  ///   written.
  public static func write(_ data: Data, to file: URL, database: URL) throws(DataFileError) {
    let target = ExportTarget(file.path)
    if target.isOneOfTheFiles(ofDatabaseAt: database.path) {
      throw .outputIsTheDatabase(file.path)
    }
    if let problem = target.write(data) {
      throw .unwritableOutput(problem)
    }
  }

  /// Brings the standups of the JSON file at `file` into the database at `database` (made when
  /// there is none), and says what it did.
  ///
  /// - Throws: ``DataFileError/unreadableInput(_:)`` when the file cannot be read,
  ///   ``DataFileError/malformedInput(path:_:)`` when it is not standups, and
  ///   ``DataFileError/storageFailed(_:)`` when the database cannot take them; in every case
  ///   nothing was imported.
  public static func importFile(
    _ file: String,
    into database: URL
  ) async throws(DataFileError) -> ImportReport {
    if let problem = StorageClient.problemWithDataFile(at: database) {
      throw .notADataFile(problem)
    }
    let data: Data
    switch FileSystem.live.read(file) {
    case .success(let bytes): data = bytes
    case .failure(let error): throw .unreadableInput(error.problem(at: file))
    }
    let standups: IdentifiedArrayOf<Standup>
    do throws(StandupsFileError) {
      standups = try StandupsFile.decode(data).standups
    } catch {
      throw .malformedInput(path: file, error)
    }
    let store = StandupsDatabase(path: database.path)
    do throws(StorageError) {
      let stored = try await store.load()
      if case .readOnly(let reason) = stored.access {
        throw .refused(.readOnly(reason))
      }
      return try await store.importStandups(standups, from: file)
    } catch {
      throw .storageFailed(error)
    }
  }
}

/// Why `standups export` or `standups import` did nothing.
public enum DataFileError: Error, Equatable, CustomStringConvertible {
  /// The database's path holds a folder, a device, a named pipe or a socket.
  case notADataFile(FileProblem)
  /// There is no database to export, or it cannot be read.
  case unreadableDatabase(StorageError)
  /// The export could not be written.
  case unwritableOutput(FileProblem)
  /// The export was to be written onto the database itself (or one of its files).
  case outputIsTheDatabase(String)
  /// The file to import cannot be read.
  case unreadableInput(FileProblem)
  /// The file to import is not standups in the JSON file format.
  case malformedInput(path: String, StandupsFileError)
  /// The database could not take the import: nothing of it was written.
  case storageFailed(StorageError)

  /// The status the command exits with, as `sysexits.h` numbers them.
  public var exitCode: Int32 {
    switch self {
    case .notADataFile: 64
    case .malformedInput: 65
    case .unreadableInput, .unreadableDatabase: 66
    case .unwritableOutput, .outputIsTheDatabase: 73
    case .storageFailed: 74
    }
  }

  /// The error in words, for standard error.
  public var description: String {
    switch self {
    case .notADataFile(let problem):
      "--data-file must name a database file (or where to create one): \(problem)."
    case .unreadableDatabase(let error):
      "Nothing was exported. \(error)"
    case .unwritableOutput(let problem):
      "The export could not be written: \(problem)."
    case .outputIsTheDatabase(let path):
      "Nothing was exported: \(path) is the database the standups are kept in (or one of its "
        + "files), which an export would replace. Name another file."
    case .unreadableInput(let problem):
      "Nothing was imported: the file could not be read: \(problem)."
    case .malformedInput(let path, let error):
      "Nothing was imported: \(path) is not a standups file. \(error)"
    case .storageFailed(let error):
      "Nothing was imported. \(error)"
    }
  }
}
