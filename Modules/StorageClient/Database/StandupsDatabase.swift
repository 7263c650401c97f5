package import Foundation
import GRDB
public import IdentifiedCollections
public import Models

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The standups in an SQLite database: what ``StorageClient/database(at:importingOnFirstLaunch:)``
/// runs on, and what `standups export` and `standups import` open.
///
/// The database is in WAL mode with full synchronisation, so a commit survives a crash and a
/// power cut, readers never wait for a writer, and several instances of the app share it: SQLite
/// locks between processes, and each waits a few seconds for another's write before giving up.
///
/// The rules that keep the user's data safe are kept here, before SQLite is asked anything:
///
/// - What is not a standups database — a file of another kind, another program's database, a
///   damaged one — is never written. It is moved aside, byte for byte, only when the user asks
///   (``keepUnreadableDataAside()``).
/// - A folder, device, named pipe or socket at the path is never opened, moved or replaced.
/// - A database made by a newer release, or marked read-only (the file or its folder), is only
///   read, and its mode is never changed.
/// - A symbolic link is followed: the file it names is the database.
///
/// ```swift
/// let database = StandupsDatabase(path: "/home/blob/.local/share/standups/standups.sqlite")
/// let stored = try await database.load()
/// try await database.apply(.deleted(stored.standups[0].id))
/// ```
public actor StandupsDatabase {
  /// How a database is opened beyond its path.
  public struct Options: Sendable {
    /// The data file of an earlier release (`standups.json`), imported when the database does
    /// not exist yet.
    public var importingOnFirstLaunch: String?
    /// The clock a meeting in progress is dated by.
    package var now: @Sendable () -> Date = { Date() }
    /// The IDs given to meetings a crash interrupted.
    package var makeMeetingID: @Sendable () -> UUID = { UUID() }
    /// The process that records meetings in progress (``ProcessIdentity``).
    package var owner = ProcessIdentity.current
    /// How long a write waits for another process's write to finish.
    package var busyTimeout: TimeInterval = 5
    /// The most pages the database may grow to: a test's full disk (`SQLITE_FULL`).
    package var maximumPageCount: Int?
    /// Called with each SQL statement run, its values included: what a test reads to see that a
    /// change writes only what it changes.
    package var onStatement: (@Sendable (String) -> Void)?

    /// Options that import `importingOnFirstLaunch` when the database is new.
    public init(importingOnFirstLaunch: String? = nil) {
      self.importingOnFirstLaunch = importingOnFirstLaunch
    }
  }

  /// The database's path, or `nil` for one in memory.
  public nonisolated let path: String?
  let options: Options
  /// What a database in memory starts with.
  var seed: IdentifiedArrayOf<Standup> = []
  var queue: DatabaseQueue?
  private var access: StorageAccess?
  /// Whether what is at the path could not be read and may be moved aside at the user's request.
  var isUnreadableDataInTheWay = false
  /// Where a look for other instances' commits left off.
  private var look = Look()

  private struct Look {
    /// `PRAGMA data_version` at the last look: it changes when another connection commits.
    var dataVersion = 0
    /// The highest `standupChange.sequence` seen.
    var sequence = 0
  }

  /// A database at `path`, opened by ``load()``.
  public init(path: String, options: Options = Options()) {
    self.path = path
    self.options = options
  }

  /// A database in memory holding `standups`; for tests and previews. It lives as long as this
  /// object: loading it again reads what was written.
  public init(
    inMemoryHolding standups: IdentifiedArrayOf<Standup> = [], options: Options = Options()
  ) {
    self.path = nil
    self.options = options
    self.seed = standups
  }

  // MARK: - Loading

  /// Opens the database (making it when there is none), imports the data file of an earlier
  /// release when the database is new, reads every standup, and keeps any meeting a crash
  /// interrupted as a past meeting.
  public func load() throws(StorageError) -> StoredStandups {
    try load(importingEarlierRelease: true)
  }

  /// ``load()``, without the import when `importingEarlierRelease` is off: a database started
  /// again after unreadable data was moved aside starts empty, as the user asked.
  func load(importingEarlierRelease: Bool) throws(StorageError) -> StoredStandups {
    if path != nil { queue = nil }
    access = nil
    isUnreadableDataInTheWay = false
    let isNew: Bool
    let opened: (queue: DatabaseQueue?, access: StorageAccess)
    if let path {
      let location = DataFileLocation.inspect(path)
      if case .missing = location { isNew = true } else { isNew = false }
      opened = try open(location)
    } else {
      isNew = false
      opened = (try inMemoryQueue(), .readWrite)
    }
    guard let queue = opened.queue else {
      access = opened.access
      return StoredStandups(standups: [], access: opened.access)
    }
    var imported: FirstLaunchImport?
    if isNew, importingEarlierRelease, let old = options.importingOnFirstLaunch {
      imported = importOnFirstLaunch(from: old, into: queue)
    }
    // NB: Everything is read before anything is written to a database that existed: a damaged
    // row fails the load here, and the database then refuses every change.
    let (loaded, look) = try reading(queue) { db in
      let look = Look(
        dataVersion: try Self.dataVersion(db), sequence: try Self.lastChangeSequence(db))
      return (try StandupRows.fetchAll(db), look)
    }
    self.look = look
    var standups = loaded
    var recovered: [RecoveredMeeting] = []
    if opened.access == .readWrite {
      recovered = try recoverInterruptedMeetings(queue)
      let changed = try reading(queue) { db in
        try StandupRows.fetch(db, ids: recovered.map(\.standupID))
      }
      for standup in changed {
        standups[id: standup.id] = standup
      }
    }
    self.queue = queue
    access = opened.access
    return StoredStandups(
      standups: standups,
      access: opened.access,
      recoveredMeetings: recovered,
      firstLaunchImport: imported
    )
  }

  /// Every standup, from a database opened only to read (`standups export`): nothing is
  /// written, not even a meeting a crash interrupted.
  public func readStandups() throws(StorageError) -> IdentifiedArrayOf<Standup> {
    guard let path else { return try reading(try inMemoryQueue()) { try StandupRows.fetchAll($0) } }
    let location = DataFileLocation.inspect(path)
    switch location {
    case .missing(let file):
      throw .unreadable(
        FileProblem(path: file, reason: .doesNotExist, technicalDetail: "lstat: no database"))
    case .file(let file):
      let reason = DataFileLocation.readOnlyReason(ofFileAt: file)
      let opened = try openReadOnly(
        file, reason: reason ?? .readOnlyFile(path: file), isImmutable: reason != nil)
      return try reading(opened.queue) { try StandupRows.fetchAll($0) }
    default:
      let opened = try open(location)
      guard let queue = opened.queue else { return [] }
      return try reading(queue) { try StandupRows.fetchAll($0) }
    }
  }

  // MARK: - Access

  /// The open database, when changes may be written to it.
  func writableQueue() throws(StorageError) -> DatabaseQueue {
    switch access {
    case .readWrite?:
      guard let queue else { throw .refused(.unreadDataInTheWay) }
      return queue
    case .readOnly(let reason)?:
      throw .refused(.readOnly(reason))
    case nil:
      throw .refused(.unreadDataInTheWay)
    }
  }

  /// Runs `work` in one immediate transaction: the write lock is taken at its start, so that no
  /// other process commits between what it reads and what it writes.
  func transaction<T>(
    _ queue: DatabaseQueue,
    _ work: (Database) throws -> T
  ) throws(StorageError) -> T {
    do {
      return try queue.writeWithoutTransaction { db in
        var result: T?
        try db.inTransaction(.immediate) {
          result = try work(db)
          return .commit
        }
        // NB: `inTransaction` commits only after `work` returned, which set `result`.
        return result!
      }
    } catch {
      throw storageError(error, at: path ?? ":memory:", while: .writing)
    }
  }

  func reading<T>(_ queue: DatabaseQueue, _ work: (Database) throws -> T) throws(StorageError) -> T
  {
    do {
      return try queue.read(work)
    } catch {
      throw storageError(error, at: path ?? ":memory:", while: .reading)
    }
  }

  static func dataVersion(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
  }

  static func lastChangeSequence(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(sequence), 0) FROM standupChange") ?? 0
  }

  /// What other connections committed since the last look: the standups whose rows changed, as
  /// they are now, and those that are gone. The look itself reads one pragma; only when it
  /// changed are the changed standups read, by the sequence numbers the triggers keep.
  public func changesElsewhere() throws(StorageError) -> ChangesElsewhere? {
    guard let queue else { return nil }
    let seen = look
    let (look, changes) = try reading(queue) { db -> (Look, ChangesElsewhere?) in
      let version = try Self.dataVersion(db)
      guard version != seen.dataVersion else { return (seen, nil) }
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT standupId, sequence FROM standupChange WHERE sequence > ? ORDER BY sequence",
        arguments: [seen.sequence])
      guard let last = rows.last else {
        return (Look(dataVersion: version, sequence: seen.sequence), nil)
      }
      let ids = rows.compactMap { UUID(uuidString: $0["standupId"]) }.map { Standup.ID($0) }
      let standups = try StandupRows.fetch(db, ids: ids)
      return (
        Look(dataVersion: version, sequence: last["sequence"]),
        ChangesElsewhere(standups: standups, deleted: ids.filter { standups[id: $0] == nil })
      )
    }
    self.look = look
    return changes
  }

  /// Commits `work` in one transaction, and keeps the look for other instances' commits where it
  /// was: when no other connection committed since the last look, the rows this transaction
  /// changes need not be read back by the next one.
  func commit<T>(_ queue: DatabaseQueue, _ work: (Database) throws -> T) throws(StorageError) -> T {
    let seen = look
    let (result, sequence) = try transaction(queue) { db in
      let isUpToDate = try Self.dataVersion(db) == seen.dataVersion
      let result = try work(db)
      return (result, isUpToDate ? try Self.lastChangeSequence(db) : seen.sequence)
    }
    look.sequence = sequence
    return result
  }
}

/// A database that `PRAGMA quick_check` found damaged.
struct DamagedDatabase: Error {
  var problems: [String]
}

/// A database with tables, none of them Standups'.
struct NotAStandupsDatabase: Error {
  var tables: [String]
}
