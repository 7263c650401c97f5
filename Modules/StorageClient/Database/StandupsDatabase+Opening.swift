import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Opening the database: what is at the path decides how, or whether, it is opened; and data
// that could not be read is moved aside, when the user asks, to start again.

extension StandupsDatabase {
  /// Opens what `location` holds: read-write when it may be written, read-only when not, and
  /// not at all when it is not the app's; `nil` when there is nothing to read and nothing may
  /// be made (a new database in a read-only folder).
  func open(
    _ location: DataFileLocation
  ) throws(StorageError) -> (queue: DatabaseQueue?, access: StorageAccess) {
    switch location {
    case .notADataFile(let problem):
      throw .notADataFile(problem)
    case .unreadable(let problem):
      throw .unreadable(problem)
    case .linkToNothing(let problem):
      isUnreadableDataInTheWay = true
      throw .notADatabase(problem, isMovableAside: DataFileLocation.isMovableAside(problem.path))
    case .missing(let file):
      guard options.makesTheFileWhenMissing else {
        throw .unreadable(
          FileProblem(path: file, reason: .doesNotExist, technicalDetail: "no file at the path"))
      }
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
      let inspected = FileIdentity(ofFileAt: file)
      if let reason = DataFileLocation.readOnlyReason(ofFileAt: file) {
        let opened = try openReadOnly(file, reason: reason, isImmutable: true)
        return (opened.queue, .readOnly(opened.reason))
      }
      if let opened = FileIdentity(ofFileAt: file), opened.links > 1 {
        let opened = try openReadOnly(file, reason: .anotherName(path: file), isImmutable: false)
        return (opened.queue, .readOnly(opened.reason))
      }
      return try openForWriting(file, expecting: inspected)
    }
  }

  func configuration(readOnly: Bool) -> Configuration {
    var configuration = Configuration()
    configuration.readonly = readOnly
    configuration.busyMode = .timeout(options.busyTimeout)
    // NB: A pull writes each change in a savepoint, whose journal SQLite otherwise writes to a
    // temporary file a page at a time; in memory it costs no system call. Guarded by Sync.Join.
    configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA temp_store = MEMORY") }
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

  /// Opens `file` to read and write; a database of a newer release is opened read-only instead.
  /// Only reads: the schema is migrated when opening finishes, once the write lock is free
  /// (``finishOpening()``).
  ///
  /// A handle that must not make the file (``Options/makesTheFileWhenMissing``) checks that the
  /// file SQLite opened is `expected`, the one looked at: SQLite makes a file at a path with
  /// none, and the user's may have been moved away in between. The empty file it made is
  /// removed again. Guarded by `OtherProgramsTests`' database moved away while the app runs.
  func openForWriting(
    _ file: String, expecting expected: FileIdentity? = nil
  ) throws(StorageError) -> (queue: DatabaseQueue?, access: StorageAccess) {
    let queue: DatabaseQueue
    let isSuperseded: Bool
    do {
      queue = try DatabaseQueue(path: file, configuration: configuration(readOnly: false))
    } catch {
      throw storageError(error, at: file, while: .opening)
    }
    if !options.makesTheFileWhenMissing, let expected,
      let problem = expected.problem(ofFileNowAt: file)
    {
      try? queue.close()
      Self.removeIfEmpty(file)
      throw .replaced(problem)
    }
    do {
      isSuperseded = try queue.writeWithoutTransaction { db in
        try Self.checkIsStandupsDatabase(db, at: file)
        // NB: Damage SQLite meets only on some pages (an index) would otherwise show up after
        // writes had made it worse; the check reads every page once.
        let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(5)")
        guard problems == ["ok"] else { throw DamagedDatabase(problems: problems) }
        guard try !Schema.migrator.hasBeenSuperseded(db) else { return true }
        // NB: Both before the first transaction: the journal mode sticks to the file, the
        // synchronisation to this connection. Setting the mode takes the write lock, so it is
        // set only when it is not WAL already, as a database this app made always is.
        if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
          _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try db.execute(sql: "PRAGMA synchronous = FULL")
        return false
      }
    } catch {
      throw storageError(error, at: file, while: .opening)
    }
    guard isSuperseded else { return (queue, .readWrite) }
    let opened = try openReadOnly(file, reason: .newerRelease(path: file), isImmutable: false)
    return (opened.queue, .readOnly(.newerRelease(path: file)))
  }

  /// Removes the file at `file` when it is empty: one SQLite made on opening, which holds
  /// nothing.
  static func removeIfEmpty(_ file: String) {
    guard let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int,
      size == 0
    else { return }
    _ = FileSystem.live.remove(file)
  }

  /// Makes a new, empty database at `file` whole: it is built under a name of its own beside
  /// `file`, readable only by the user, and takes `file`'s name only once it is complete. Two
  /// instances starting at once then never meet half of one: SQLite would let both set up the
  /// same new file, and one would fail. If another instance's database takes the name first,
  /// that one is used.
  func createDatabase(at file: String) throws(StorageError) {
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
  static func removeAbandonedCreations(in folder: String, prefix: String) {
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
  func openReadOnly(
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
  func inMemoryQueue() throws(StorageError) -> DatabaseQueue {
    if let queue { return queue }
    return try openInMemory()
  }

  func openInMemory() throws(StorageError) -> DatabaseQueue {
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
  static func checkIsStandupsDatabase(_ db: Database, at file: String) throws {
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
  static func uriPath(_ path: String) -> String {
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
  func moveAside(_ file: String) throws(StorageError) -> String {
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
}
