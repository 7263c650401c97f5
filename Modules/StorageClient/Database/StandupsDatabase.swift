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
  private var seed: IdentifiedArrayOf<Standup> = []
  private var queue: DatabaseQueue?
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

  // MARK: - Opening

  /// Opens the database (making it when there is none), imports the data file of an earlier
  /// release when the database is new, reads every standup, and keeps any meeting a crash
  /// interrupted as a past meeting.
  public func load() throws(StorageError) -> StoredStandups {
    try load(importingEarlierRelease: true)
  }

  /// ``load()``, without the import when `importingEarlierRelease` is off: a database started
  /// again after unreadable data was moved aside starts empty, as the user asked.
  private func load(importingEarlierRelease: Bool) throws(StorageError) -> StoredStandups {
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

  /// Opens what `location` holds: read-write when it may be written, read-only when not, and
  /// not at all when it is not the app's; `nil` when there is nothing to read and nothing may
  /// be made (a new database in a read-only folder).
  private func open(
    _ location: DataFileLocation
  ) throws(StorageError) -> (queue: DatabaseQueue?, access: StorageAccess) {
    switch location {
    case .notADataFile(let problem):
      throw .notADataFile(problem)
    case .unreadable(let problem):
      throw .unreadable(problem)
    case .linkToNothing(let problem):
      isUnreadableDataInTheWay = true
      throw .unreadable(problem)
    case .missing(let file):
      let folder = (file as NSString).deletingLastPathComponent
      if let error = FileSystem.live.createDirectories(folder) {
        throw .unreadable(error.problem(at: folder))
      }
      if let reason = DataFileLocation.readOnlyReason(ofFolder: folder) {
        return (nil, .readOnly(reason))
      }
      try createDatabase(at: file)
      return try openForWriting(file)
    case .file(let file):
      if let reason = DataFileLocation.readOnlyReason(ofFileAt: file) {
        let opened = try openReadOnly(file, reason: reason, isImmutable: true)
        return (opened.queue, .readOnly(opened.reason))
      }
      return try openForWriting(file)
    }
  }

  private func configuration(readOnly: Bool) -> Configuration {
    var configuration = Configuration()
    configuration.readonly = readOnly
    configuration.busyMode = .timeout(options.busyTimeout)
    if let pages = options.maximumPageCount {
      configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA max_page_count = \(pages)")
      }
    }
    if let onStatement = options.onStatement {
      configuration.prepareDatabase { db in
        db.trace { onStatement($0.expandedDescription) }
      }
    }
    return configuration
  }

  /// Opens `file` to read and write, migrating its schema; a database of a newer release is
  /// opened read-only instead.
  private func openForWriting(
    _ file: String
  ) throws(StorageError) -> (queue: DatabaseQueue?, access: StorageAccess) {
    let queue: DatabaseQueue
    let isSuperseded: Bool
    do {
      queue = try DatabaseQueue(path: file, configuration: configuration(readOnly: false))
      isSuperseded = try queue.writeWithoutTransaction { db in
        try Self.checkIsStandupsDatabase(db, at: file)
        // NB: Damage SQLite meets only on some pages (an index) would otherwise show up after
        // writes had made it worse; the check reads every page once.
        let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
        guard problems == ["ok"] else { throw DamagedDatabase(problems: problems) }
        guard try !Schema.migrator.hasBeenSuperseded(db) else { return true }
        // NB: Both before the first transaction: the journal mode sticks to the file, the
        // synchronisation to this connection.
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "PRAGMA synchronous = FULL")
        return false
      }
      if !isSuperseded {
        try Schema.migrator.migrate(queue)
      }
    } catch {
      throw storageError(error, at: file, while: .opening)
    }
    guard isSuperseded else { return (queue, .readWrite) }
    let opened = try openReadOnly(file, reason: .newerRelease(path: file), isImmutable: false)
    return (opened.queue, .readOnly(.newerRelease(path: file)))
  }

  /// Makes a new, empty database at `file` whole: it is built under a name of its own beside
  /// `file`, readable only by the user, and takes `file`'s name only once it is complete. Two
  /// instances starting at once then never meet half of one: SQLite would let both set up the
  /// same new file, and one would fail. If another instance's database takes the name first,
  /// that one is used.
  private func createDatabase(at file: String) throws(StorageError) {
    let folder = (file as NSString).deletingLastPathComponent
    let prefix = ".\((file as NSString).lastPathComponent).creating-"
    Self.removeAbandonedCreations(in: folder, prefix: prefix)
    let building = (folder as NSString).appendingPathComponent(
      "\(prefix)\(getpid())-\(UUID().uuidString)")
    defer { _ = FileSystem.live.remove(building) }
    do {
      let queue = try DatabaseQueue(path: building, configuration: configuration(readOnly: false))
      try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
      }
      try Schema.migrator.migrate(queue)
      try queue.close()
    } catch {
      throw storageError(error, at: folder, while: .writing)
    }
    chmod(building, 0o600)
    if let error = FileSystem.live.link(building, file), error.code != EEXIST {
      throw .writeFailed(error.problem(at: file))
    }
  }

  /// Removes what a process that stopped while making a database (``createDatabase(at:)``) left
  /// in `folder`.
  private static func removeAbandonedCreations(in folder: String, prefix: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasPrefix(prefix) {
      let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { pid_t($0) }
      guard let pid, kill(pid, 0) != 0, errno == ESRCH else { continue }
      _ = FileSystem.live.remove((folder as NSString).appendingPathComponent(name))
    }
  }

  /// Opens `file` only to read. One that nothing may write (`isImmutable`: the file or its
  /// folder is read-only) is opened as immutable when it has no write-ahead log to read, which
  /// makes no `-wal` or `-shm` file beside it (a read-only folder could not hold them); any other
  /// takes SQLite's locks, as another instance may be writing it.
  private func openReadOnly(
    _ file: String,
    reason: ReadOnlyReason,
    isImmutable: Bool
  ) throws(StorageError) -> (queue: DatabaseQueue, reason: ReadOnlyReason) {
    var status = stat()
    let hasLog = stat(file + "-wal", &status) == 0 && status.st_size > 0
    let immutable = "file:\(Self.uriPath(file))?immutable=1"
    do {
      let queue: DatabaseQueue
      if isImmutable, !hasLog,
        let opened = try? DatabaseQueue(
          path: immutable, configuration: configuration(readOnly: true))
      {
        queue = opened
      } else {
        queue = try DatabaseQueue(path: file, configuration: configuration(readOnly: true))
      }
      let isNewer = try queue.read { db in
        try Self.checkIsStandupsDatabase(db, at: file)
        return try Schema.migrator.hasBeenSuperseded(db)
      }
      return (queue, isNewer ? .newerRelease(path: file) : reason)
    } catch {
      throw storageError(error, at: file, while: .opening)
    }
  }

  /// The database in memory, made on first use.
  private func inMemoryQueue() throws(StorageError) -> DatabaseQueue {
    if let queue { return queue }
    return try openInMemory()
  }

  private func openInMemory() throws(StorageError) -> DatabaseQueue {
    do {
      let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
      try Schema.migrator.migrate(queue)
      let seed = self.seed
      try queue.write { db in
        for (position, standup) in seed.enumerated() {
          try StandupRows.insert(standup, at: position, db)
        }
      }
      return queue
    } catch {
      throw storageError(error, at: ":memory:", while: .opening)
    }
  }

  /// Throws when the database has tables but was not made by Standups: another program's, which
  /// the app must not add its tables to.
  private static func checkIsStandupsDatabase(_ db: Database, at file: String) throws {
    let tables = try String.fetchSet(
      db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    guard !tables.isEmpty else { return }
    if tables.contains("grdb_migrations"),
      try Schema.migrator.appliedIdentifiers(db).contains(Schema.firstMigration)
    {
      return
    }
    throw NotAStandupsDatabase(tables: tables.sorted())
  }

  /// `path` with the characters a URI gives a meaning to escaped.
  private static func uriPath(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
  }

  // MARK: - Keeping unreadable data aside

  /// Moves what could not be read aside, unchanged, under a name beside it that sorts by time
  /// and never replaces anything, with its `-wal` file when it has one; then makes an empty
  /// database in its place.
  ///
  /// - Returns: Where the data went, or `nil` when there was nothing to move.
  public func keepUnreadableDataAside() throws(StorageError) -> String? {
    guard let path else { return nil }
    let location = DataFileLocation.inspect(path)
    if case .notADataFile(let problem) = location { throw .notADataFile(problem) }
    guard isUnreadableDataInTheWay else { return nil }
    let file: String
    switch location {
    case .file(let resolved): file = resolved
    case .linkToNothing: file = path
    case .missing:
      isUnreadableDataInTheWay = false
      _ = try load(importingEarlierRelease: false)
      return nil
    case .notADataFile(let problem):
      throw .notADataFile(problem)
    case .unreadable(let problem):
      // NB: What cannot be looked at may not be the app's to move.
      throw .backupFailed(problem)
    }
    queue = nil
    let backup = try moveAside(file)
    for suffix in ["-wal", "-shm", "-journal"] {
      // NB: A log left by a crash holds the latest commits: it goes with its database. Its
      // name is the backup's with the same suffix, which SQLite would read with it.
      if case .success(.file) = FileSystem.live.entry(file + suffix) {
        _ =
          FileSystem.live.link(file + suffix, backup + suffix)
          ?? FileSystem.live.remove(file + suffix)
      }
    }
    isUnreadableDataInTheWay = false
    _ = try load(importingEarlierRelease: false)
    return backup
  }

  /// Gives `file` a new backup name and removes the old one; never replaces anything.
  private func moveAside(_ file: String) throws(StorageError) -> String {
    let folder = (file as NSString).deletingLastPathComponent
    let name = (file as NSString).lastPathComponent
    let stem = (name as NSString).deletingPathExtension
    let pathExtension = (name as NSString).pathExtension
    let stamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(options.now())
      .filter { $0 != "-" && $0 != ":" }
    for attempt in 0..<1000 {
      let backupName = "\(stem).backup-\(stamp)-\(String(format: "%03d", attempt))"
      let backup = (folder as NSString).appendingPathComponent(
        pathExtension.isEmpty ? backupName : "\(backupName).\(pathExtension)")
      // NB: A second name never replaces anything; the first is removed once it exists.
      guard let error = FileSystem.live.link(file, backup) ?? FileSystem.live.remove(file) else {
        return backup
      }
      guard error.code == EEXIST else { throw .backupFailed(error.problem(at: backup)) }
    }
    throw .backupFailed(
      FileProblem(
        path: folder, reason: .other("a thousand backups were made this millisecond"),
        technicalDetail: "link: EEXIST 1000 times"))
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
