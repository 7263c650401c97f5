public import Models

/// Why the standups could not be loaded or a change saved, in words for people; the system's
/// own words are kept in ``technicalDetail`` for logs.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is at the path is not a standups database: a file of another kind, a database of
  /// another program, a symbolic link to nothing. It is never written over; it is moved aside,
  /// unchanged, only when the user asks (``StorageClient/keepUnreadableDataAside``), and only
  /// when its folder allows it (`isMovableAside`).
  case notADatabase(FileProblem, isMovableAside: Bool)
  /// The database is damaged. It is never written over, and moved aside only when asked, where
  /// its folder allows it (`isMovableAside`).
  case corrupt(FileProblem, isMovableAside: Bool)
  /// What is at the path is not a file the app could have made — a folder, a device, a named
  /// pipe, a socket — or a file stands where a folder of the path should be. It is never moved,
  /// replaced or opened.
  case notADataFile(FileProblem)
  /// The database could not be opened or read.
  case unreadable(FileProblem)
  /// A change could not be saved, and nothing of it was: the transaction rolled back.
  case writeFailed(FileProblem)
  /// Nothing was written, to keep the stored data safe.
  case refused(Refusal)
  /// The data that could not be read could not be moved aside, so nothing changed.
  case backupFailed(FileProblem)
  /// The file opened is no longer the one at the database's path: it was removed, moved or
  /// replaced, or given a second name, while the app had it open. Nothing more is written to
  /// it: a write would go where the user would not find it.
  case replaced(FileProblem)
  /// A change to a standup whose stored rows cannot be read was not saved: it is never written
  /// over. Every other standup's changes are.
  case unreadableStandup(UnreadableStandup)

  /// Why a write was refused.
  public enum Refusal: Equatable, Sendable {
    /// The store was not loaded, or what is there could not be read and has not been moved
    /// aside.
    case unreadDataInTheWay
    /// The store is only read (``ReadOnlyReason``).
    case readOnly(ReadOnlyReason)
    /// The change would give a standup, by title, what no standup may hold
    /// (``/Models/StandupRules``).
    case breaksRule(String, StandupRules.Violation)
  }

  /// Whether the same write may succeed later, untouched: another program held the database,
  /// the disk was full or failed for a moment. A refusal, unreadable data or a replaced file
  /// stays as it is until someone changes something.
  public var isWorthRetrying: Bool {
    guard case .writeFailed(let problem) = self else { return false }
    switch problem.reason {
    case .busy, .diskFull, .quotaExceeded, .inputOutputError, .other: return true
    default: return false
    }
  }

  /// Whether another program holds the database: trouble that passes on its own once it lets go,
  /// with nothing for the user to do but know it.
  public var isWaitingForAnotherProgram: Bool {
    switch self {
    case .writeFailed(let problem), .unreadable(let problem): problem.reason == .busy
    default: false
    }
  }

  /// Whether a failed write concerns only the change that was being written (its standup cannot
  /// be read, or the change breaks a rule), so that the changes after it may still be written.
  public var concernsOnlyItsChange: Bool {
    switch self {
    case .unreadableStandup, .refused(.breaksRule): true
    default: false
    }
  }

  /// Whether what could not be read may be moved aside to start again: it is data the app could
  /// have made, and its folder takes a new name.
  public var isMovableAside: Bool {
    switch self {
    case .notADatabase(_, let isMovable), .corrupt(_, let isMovable): isMovable
    case .notADataFile, .unreadable, .writeFailed, .refused, .backupFailed, .replaced,
      .unreadableStandup:
      false
    }
  }

  /// A sentence for people.
  public var description: String {
    switch self {
    case .notADatabase(let problem, _):
      "The saved standups could not be read: \(problem)."
    case .corrupt(let problem, _):
      "The saved standups are damaged: \(problem)."
    case .notADataFile(let problem):
      "The standups cannot be kept there: \(problem). The app leaves it as it is."
    case .unreadable(let problem):
      "The saved standups could not be opened: \(problem)."
    case .writeFailed(let problem):
      "The change could not be saved: \(problem). Nothing of it was written."
    case .refused(.unreadDataInTheWay):
      "The change was not saved: the saved standups could not be read, and are left as they are."
    case .refused(.readOnly(let reason)):
      "The change was not saved: \(reason)"
    case .backupFailed(let problem):
      "The data that could not be read could not be moved aside (\(problem)), so nothing changed."
    case .replaced(let problem):
      "The database is no longer the file Standups opened: \(problem). Nothing more is saved to "
        + "it; your changes stay here, and quitting keeps them in a recovery file."
    case .unreadableStandup(let unreadable):
      "The change was not saved: \(unreadable) in the database, which is left as it is."
    case .refused(.breaksRule(let title, let violation)):
      "The change to “\(title)” was not saved: \(violation.reason)"
    }
  }

  /// What happened, said of the database rather than of a change: for work that was no edit of
  /// the user's (a sync, a team command that only reads), of which "the change could not be
  /// saved" would be false.
  ///
  /// ```swift
  /// StorageError.writeFailed(problem).aboutTheDatabase
  /// // "This machine's database could not be written: the disk is full (/home/blob/…)."
  /// ```
  public var aboutTheDatabase: String {
    switch self {
    case .writeFailed(let problem): "This machine's database could not be written: \(problem)."
    case .unreadable(let problem): "This machine's database could not be read: \(problem)."
    case .refused(.readOnly(let reason)): reason.description
    default: description
    }
  }

  /// What the system said, for logs.
  public var technicalDetail: String {
    switch self {
    case .notADatabase(let problem, _), .corrupt(let problem, _), .notADataFile(let problem),
      .unreadable(let problem), .writeFailed(let problem), .backupFailed(let problem),
      .replaced(let problem):
      problem.technicalDetail
    case .unreadableStandup(let unreadable): "standup \(unreadable.id): \(unreadable.problem)"
    case .refused(.unreadDataInTheWay): "write refused: the stored data was not read"
    case .refused(.readOnly(let reason)): "write refused: \(reason)"
    case .refused(.breaksRule(_, let violation)): "write refused: \(violation)"
    }
  }
}

/// An operation on a file that failed: where, why in words, and what the system said.
public struct FileProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The path the operation was on.
  public var path: String
  /// Why it failed.
  public var reason: Reason
  /// The system's words, for logs, such as `write: No space left on device (errno 28)`.
  public var technicalDetail: String

  /// Why an operation on a file failed.
  public enum Reason: Equatable, Sendable {
    case busy
    case corrupt
    case device
    case diskFull
    case doesNotExist
    /// This file is where a folder of the path should be.
    case fileWhereAFolderShouldBe(String)
    case inputOutputError
    case isDirectory
    case linkToNothing
    case namedPipe
    case notADatabase
    case notADirectory
    /// A database, but of another program: it has tables, and none of Standups'.
    case notAStandupsDatabase
    case permissionDenied
    case quotaExceeded
    case readOnlyDisk
    case socket
    /// Another file is at the path now, or none.
    case replaced(String)
    /// Any other failure, in the system's words.
    case other(String)
  }

  /// Creates a problem report.
  public init(path: String, reason: Reason, technicalDetail: String) {
    self.path = path
    self.reason = reason
    self.technicalDetail = technicalDetail
  }

  /// The reason and the path, for people: `the disk is full (/home/blob/standups.sqlite)`.
  public var description: String {
    path.isEmpty ? reasonDescription : "\(reasonDescription) (\(path))"
  }

  /// The reason alone, for a line with no room for the path: `the disk is full`.
  public var reasonDescription: String {
    switch reason {
    case .busy: "another program kept the database locked"
    case .corrupt: "the database is damaged"
    case .device: "it is a device, not a file"
    case .diskFull: "the disk is full"
    case .doesNotExist: "it does not exist"
    case .fileWhereAFolderShouldBe(let file): "\(file) is a file, where a folder should be"
    case .inputOutputError: "the disk reported an input/output error"
    case .isDirectory: "it is a folder, not a file"
    case .linkToNothing: "it is a symbolic link to a file that does not exist"
    case .namedPipe: "it is a named pipe, not a file"
    case .notADatabase: "it is not a database"
    case .notADirectory: "a folder on its path is a file"
    case .notAStandupsDatabase: "it is a database of another program"
    case .permissionDenied: "permission denied"
    case .quotaExceeded: "the disk quota is used up"
    case .readOnlyDisk: "the disk is read-only"
    case .socket: "it is a socket, not a file"
    case .replaced(let what): what
    case .other(let words): words
    }
  }
}
