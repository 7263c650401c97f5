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
    /// The data file of an earlier release (`standups.json`), brought in once: at the first
    /// opening that finds it there, whatever made the database (its `metadata` table).
    public var importingOnFirstLaunch: String?
    /// The clock a meeting in progress and a replaced value are dated by.
    package var now: @Sendable () -> Date = { Date() }
    /// The IDs given to meetings a crash interrupted and to replaced values.
    package var makeMeetingID: @Sendable () -> UUID = { UUID() }
    /// The process that records meetings in progress and saves replacements
    /// (``ProcessIdentity``).
    package var owner = ProcessIdentity.current
    /// How long a write waits for another process's write to finish before it fails and is
    /// tried again later: transactions last milliseconds, and a program that holds the lock
    /// longer is waited for in the background, not here.
    package var busyTimeout: TimeInterval = 1
    /// The most pages the database may grow to: a test's full disk (`SQLITE_FULL`).
    package var maximumPageCount: Int?
    /// Called with each SQL statement run, its values included: what a test reads to see that a
    /// change writes only what it changes.
    package var onStatement: (@Sendable (String) -> Void)?

    /// Whether a path with nothing at it gets a new, empty database. The app's own opening
    /// makes one (a first launch); a second handle on the file the app opened, such as the
    /// teams' beside the live app, must not: the file may have been moved away since, and a new
    /// database in its place would be written to where the user's data no longer is.
    public var makesTheFileWhenMissing = true

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
  /// The one connection to the database.
  ///
  /// NB: One connection, never a pool, though GRDB recommends a `DatabasePool` for WAL
  /// databases: `PRAGMA data_version` counts the commits of *other* connections, per
  /// connection, so a read on a pool's reader would miss this process's own writes or report
  /// them as another's. `ChangesElsewhereTests.anInstanceIsNotToldOfItsOwnChanges` fails on a pool.
  var queue: DatabaseQueue?
  private(set) var access: StorageAccess?
  /// Whether what is at the path could not be read and may be moved aside at the user's request.
  var isUnreadableDataInTheWay = false
  /// Whether the work of opening that writes is done: the schema migrated, interrupted meetings
  /// recovered, an earlier release's file brought in (``finishOpening()``).
  private(set) var isOpeningFinished = true
  /// Why the work of opening waits, when its last try failed: another program held the
  /// database, or the disk was full.
  private(set) var openingProblem: StorageError?
  /// What the last read of other instances' commits had seen.
  var commitsSeen = CommitsSeen()
  /// The file opened, to tell when another is put at the path (``FileIdentity``).
  var openedFile: FileIdentity?
  /// Each team's outbox as its last pull read it, which the next reads again
  /// (``TeamLedger/Outbox/readAgain(of:_:)``) rather than decode every waiting change anew.
  var outboxesPulledWith: [TeamMembership.ID: TeamLedger.Outbox] = [:]

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

  /// Opens the database (making it when there is none) and reads every standup; then, unless
  /// another program holds the write lock, finishes opening (``finishOpening()``): a meeting a
  /// crash interrupted becomes a past meeting, and an earlier release's file is brought in.
  ///
  /// Reading needs no lock: another program writing, or holding the database with
  /// `BEGIN EXCLUSIVE`, never keeps the standups from showing. What opening still has to write
  /// then waits (``StoredStandups/opening``).
  public func load() throws(StorageError) -> StoredStandups {
    try load(importingEarlierRelease: true)
  }

  /// ``load()``, without the import when `importingEarlierRelease` is off: a database started
  /// again after unreadable data was moved aside starts empty, as the user asked, and never
  /// brings the earlier release's file in later.
  func load(importingEarlierRelease: Bool) throws(StorageError) -> StoredStandups {
    if path != nil { queue = nil }
    access = nil
    isUnreadableDataInTheWay = false
    isOpeningFinished = true
    openingProblem = nil
    skipEarlierReleaseImport = !importingEarlierRelease
    openedFile = nil
    let opened: (queue: DatabaseQueue?, access: StorageAccess)
    if let path {
      opened = try open(DataFileLocation.inspect(path))
    } else {
      opened = (try inMemoryQueue(), .readWrite)
    }
    guard let queue = opened.queue else {
      access = opened.access
      return StoredStandups(standups: [], access: opened.access)
    }
    // NB: Everything is read before anything is written: a row that cannot be read is set
    // aside here, and never written over.
    let owner = options.owner
    let (read, seen) = try reading(queue) { db in
      (
        // NB: An empty file at the path (`touch standups.sqlite`) holds no standups until
        // opening finishes and makes its tables.
        try Schema.migrator.appliedIdentifiers(db).isEmpty
          ? StandupRows.Read() : StandupRows.fetchAll(db),
        CommitsSeen(
          dataVersion: try Self.dataVersion(db), sequence: try Self.lastSequence(db),
          // NB: Read now, not at the first read of changes elsewhere, which reads them only after a
          // commit, and one replaced while the app was closed (a team's pull by `standups sync`)
          // waits for none.
          replacedValues: try opened.access == .readWrite && db.tableExists("replacedValue")
            ? ReplacedValueRecord.fetchAll(db, notReplacedBy: .process(owner)) : [])
      )
    }
    self.queue = queue
    access = opened.access
    commitsSeen = seen
    if let path { openedFile = FileIdentity(ofFileAt: path) }
    var stored = StoredStandups(
      standups: read.standups, access: opened.access, unreadable: read.unreadable,
      replacedValues: seen.replacedValues)
    guard opened.access == .readWrite else { return stored }
    isOpeningFinished = false
    do {
      let report = try finishOpening(waitingForTheLock: false)
      for standup in report.standups {
        stored.standups[id: standup.id] = standup
      }
      stored.opening = .finished(report)
    } catch {
      guard error.isWorthRetrying else { throw error }
      stored.opening = .waiting(error)
    }
    return stored
  }

  /// Whether this opening must not bring in the earlier release's file (the user started again
  /// empty).
  private var skipEarlierReleaseImport = false

  /// Finishes what opening writes, once the write lock is free: migrates the schema, keeps every
  /// meeting whose recording app stopped as a past meeting, and brings an earlier release's file
  /// in once. Does nothing when it is done already. Throws a ``StorageError`` that
  /// ``StorageError/isWorthRetrying`` when another program holds the lock.
  public func finishOpening() throws(StorageError) -> OpeningReport {
    try finishOpening(waitingForTheLock: true)
  }

  private func finishOpening(waitingForTheLock: Bool) throws(StorageError) -> OpeningReport {
    guard !isOpeningFinished, let queue, access == .readWrite else { return OpeningReport() }
    let report: OpeningReport
    do {
      report = try withBusyTimeout(waitingForTheLock ? options.busyTimeout : 0, queue) {
        () throws(StorageError) -> OpeningReport in
        try migrate(queue)
        // NB: Opening takes the write lock only when it has something to write: another
        // program holding the database never keeps the app from opening it.
        guard try reading(queue, hasWorkToWrite) else { return OpeningReport() }
        return try commit(queue) { db in
          var report = OpeningReport()
          report.recoveredMeetings = try recoverInterruptedMeetings(db)
          report.earlierRelease = try importEarlierRelease(db)
          let changed = report.recoveredMeetings.map(\.standupID) + report.importedIDs
          report.standups = try StandupRows.fetch(db, ids: changed).standups
          return report
        }
      }
    } catch {
      openingProblem = error
      throw error
    }
    openingProblem = nil
    isOpeningFinished = true
    return report
  }

  /// Whether finishing opening writes anything: a meeting whose recording app stopped, or an
  /// earlier release's file not yet brought in.
  private func hasWorkToWrite(_ db: Database) throws -> Bool {
    if try InterruptedMeeting.fetchAll(db, makeID: options.makeMeetingID)
      .contains(where: { !$0.isBeingRecorded })
    {
      return true
    }
    guard let file = options.importingOnFirstLaunch else { return false }
    return try Metadata.earlierReleaseFile.value(in: db) == nil
      && (skipEarlierReleaseImport || FileManager.default.fileExists(atPath: file))
  }

  /// Brings the schema up to this release's, when it is behind.
  private func migrate(_ queue: DatabaseQueue) throws(StorageError) {
    do {
      guard try !queue.read(Schema.migrator.hasCompletedMigrations) else { return }
      try Schema.migrator.migrate(queue)
    } catch {
      throw storageError(error, at: path ?? ":memory:", while: .writing)
    }
  }

  /// The earlier release's file brought in, when the database has not recorded bringing it in
  /// (or deciding not to) and it is there; records that it was.
  private func importEarlierRelease(_ db: Database) throws -> FirstLaunchImport? {
    guard let file = options.importingOnFirstLaunch,
      try Metadata.earlierReleaseFile.value(in: db) == nil
    else { return nil }
    if skipEarlierReleaseImport {
      try Metadata.earlierReleaseFile.set("not brought in: started again empty", in: db)
      return nil
    }
    guard let outcome = try importOnFirstLaunch(from: file, db) else { return nil }
    try Metadata.earlierReleaseFile.set(outcome.record, in: db)
    return outcome
  }

  /// Runs `work` with the connection waiting at most `seconds` for another's write lock.
  private func withBusyTimeout<T>(
    _ seconds: TimeInterval,
    _ queue: DatabaseQueue,
    _ work: () throws(StorageError) -> T
  ) throws(StorageError) -> T {
    let milliseconds = Int(seconds * 1000)
    let usual = Int(options.busyTimeout * 1000)
    guard milliseconds != usual else { return try work() }
    try? queue.writeWithoutTransaction {
      try $0.execute(sql: "PRAGMA busy_timeout = \(milliseconds)")
    }
    defer {
      try? queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA busy_timeout = \(usual)") }
    }
    return try work()
  }

  // MARK: - Access

  /// The open database, when changes may be written to it: it was read, it may be written, and
  /// it is still the file at its path.
  func writableQueue() throws(StorageError) -> DatabaseQueue {
    switch access {
    case .readWrite?:
      guard let queue else { throw .refused(.unreadDataInTheWay) }
      try checkItIsStillTheFileAtItsPath()
      return queue
    case .readOnly(let reason)?:
      throw .refused(.readOnly(reason))
    case nil:
      throw .refused(.unreadDataInTheWay)
    }
  }

  /// Throws ``StorageError/replaced(_:)`` when the file opened is no longer the one at the path:
  /// it was removed, moved or replaced, or it was given another name (a hard link), under which
  /// SQLite would keep a second log of its own. Every write then goes nowhere the user would
  /// find it, so none is made.
  func checkItIsStillTheFileAtItsPath() throws(StorageError) {
    guard let path, let openedFile else { return }
    if let problem = openedFile.problem(ofFileNowAt: path) {
      throw .replaced(problem)
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

  static func lastSequence(_ db: Database) throws -> Int {
    // NB: An empty file at the path has no tables until opening finishes.
    guard try db.tableExists("standupChange") else { return 0 }
    return try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(sequence), 0) FROM standupChange") ?? 0
  }

  /// Commits `work` in one transaction, and keeps the read of other instances' commits where it
  /// was: when no other connection committed since the last read, the rows this transaction
  /// changes need not be read back by the next one.
  func commit<T>(_ queue: DatabaseQueue, _ work: (Database) throws -> T) throws(StorageError) -> T {
    let seen = commitsSeen
    let (result, sequence) = try transaction(queue) { db in
      let isUpToDate = try Self.dataVersion(db) == seen.dataVersion
      let result = try work(db)
      return (result, isUpToDate ? try Self.lastSequence(db) : seen.sequence)
    }
    commitsSeen.sequence = sequence
    return result
  }

  /// Copies every commit in the write-ahead log into the database file itself and empties the
  /// log, so that the file alone holds the standups (a backup of `standups.sqlite` without its
  /// `-wal` is whole): what a clean exit does. Does nothing to a database only read; while
  /// another connection reads from the log, the log is copied but not emptied, and the last
  /// connection to close empties it.
  public func checkpoint() throws(StorageError) {
    guard let queue, access == .readWrite, path != nil else { return }
    try checkItIsStillTheFileAtItsPath()
    do {
      try queue.writeWithoutTransaction { db in
        _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
      }
    } catch {
      throw storageError(error, at: path ?? ":memory:", while: .writing)
    }
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
