import GRDB

extension StandupsDatabase {
  /// What the database was doing when it failed.
  enum Operation {
    case opening
    case reading
    case writing
  }

  /// What SQLite (or a check made before it) reported, as a ``StorageError`` in the reader's
  /// words; the code and SQLite's message stay in the technical detail. Data found unreadable
  /// while opening or reading may then be moved aside at the user's request.
  func storageError(_ error: any Error, at path: String, while operation: Operation) -> StorageError
  {
    let isMovableAside = DataFileLocation.isMovableAside(path)
    let problem: FileProblem
    switch error {
    case let error as NotAStandupsDatabase:
      isUnreadableDataInTheWay = true
      return .notADatabase(
        FileProblem(
          path: path, reason: .notAStandupsDatabase,
          technicalDetail: "tables: \(error.tables.joined(separator: ", "))"),
        isMovableAside: isMovableAside)
    case let error as DamagedDatabase:
      isUnreadableDataInTheWay = true
      return .corrupt(
        FileProblem(
          path: path, reason: .corrupt,
          technicalDetail: "quick_check: \(error.problems.joined(separator: "; "))"),
        isMovableAside: isMovableAside)
    case let error as InvalidStoredValue:
      isUnreadableDataInTheWay = operation != .writing
      return .corrupt(
        FileProblem(path: path, reason: .other(error.description), technicalDetail: "\(error)"),
        isMovableAside: isMovableAside)
    case let error as StorageError:
      return error
    case let unreadable as UnreadableStandup:
      return .unreadableStandup(unreadable)
    case let error as DatabaseError:
      let detail = "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "")"
      switch error.resultCode {
      case .SQLITE_NOTADB:
        isUnreadableDataInTheWay = true
        return .notADatabase(
          FileProblem(path: path, reason: .notADatabase, technicalDetail: detail),
          isMovableAside: isMovableAside)
      case .SQLITE_CORRUPT:
        isUnreadableDataInTheWay = operation != .writing
        return .corrupt(
          FileProblem(path: path, reason: .corrupt, technicalDetail: detail),
          isMovableAside: isMovableAside)
      case .SQLITE_FULL:
        problem = FileProblem(path: path, reason: .diskFull, technicalDetail: detail)
      case _ where error.extendedResultCode == .SQLITE_IOERR_SHMSIZE:
        // NB: The write-ahead log's shared-memory file could not grow: SQLite's words for a
        // disk with no room left, met when a database is opened on a full disk.
        problem = FileProblem(path: path, reason: .diskFull, technicalDetail: detail)
      case .SQLITE_BUSY, .SQLITE_LOCKED:
        problem = FileProblem(path: path, reason: .busy, technicalDetail: detail)
      case .SQLITE_IOERR:
        problem = FileProblem(path: path, reason: .inputOutputError, technicalDetail: detail)
      case .SQLITE_READONLY:
        problem = FileProblem(
          path: path, reason: .other("the database could only be read"), technicalDetail: detail)
      case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
        problem = FileProblem(path: path, reason: .permissionDenied, technicalDetail: detail)
      default:
        problem = FileProblem(
          path: path, reason: .other(error.message ?? "SQLite reported an error"),
          technicalDetail: detail)
      }
    default:
      problem = FileProblem(path: path, reason: .other("\(error)"), technicalDetail: "\(error)")
    }
    return operation == .writing ? .writeFailed(problem) : .unreadable(problem)
  }
}
