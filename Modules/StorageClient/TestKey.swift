public import Dependencies
public import Foundation
public import IdentifiedCollections
public import Models
import Synchronization

extension StorageClient: TestDependencyKey {
  /// Fails the test when loading or saving without the endpoint being overridden.
  public static let testValue = Self()

  /// Keeps the mock standups in memory.
  public static var previewValue: Self {
    InMemoryStorage(standups: [.mock, .engineeringMock, .productMock]).client
  }
}

/// Storage in memory, for tests and previews: it keeps the bytes a file would hold, so a test
/// can read exactly what was saved, and follows the same rules as the file (it never writes
/// over data it could not read, and a late save of an older revision does nothing). It can be
/// told to fail, to hold data that cannot be read, and to pause a save.
///
/// ```swift
/// let storage = InMemoryStorage(standups: [.mock])
/// let store = TestStore(initialState: AppFeature.State()) {
///   AppFeature()
/// } withDependencies: {
///   $0.storageClient = storage.client
/// }
/// // …
/// #expect(storage.savedStandups == [.mock])
/// ```
public final class InMemoryStorage: Sendable {
  private struct Contents {
    var data: Data?

    /// The standups stored, when they can be read.
    var storedStandups: IdentifiedArrayOf<Standup>? {
      data.flatMap { try? StandupsFile.decode($0).standups }
    }

    var unreadable: FileProblem?
    var policy = StoragePolicy()
    var saveCount = 0
    var saveFailure: StorageError?
    var backupFailure: StorageError?
    var backups: [Data?] = []
    var beforeLoad: (@Sendable () async -> Void)?
    var beforeSave: (@Sendable (Int) async -> Void)?
  }

  private let contents: Mutex<Contents>

  /// Storage holding the bytes of a file, or nothing.
  public init(data: Data? = nil) {
    self.contents = Mutex(Contents(data: data))
  }

  /// Storage holding the given standups, as a file would.
  public convenience init(standups: IdentifiedArrayOf<Standup>) {
    self.init(data: try? StandupsFile(standups: standups).encoded())
  }

  /// Storage holding standups that the app has already loaded, for a test that starts from a
  /// state where loading is done.
  public convenience init(loaded standups: IdentifiedArrayOf<Standup>) {
    self.init(standups: standups)
    contents.withLock { contents in _ = try? Self.load(&contents) }
  }

  /// Storage whose data exists but cannot be read, for the given reason.
  public convenience init(unreadable problem: FileProblem) {
    self.init()
    contents.withLock { $0.unreadable = problem }
  }

  /// The stored bytes, as they would be in the file.
  public var data: Data? {
    contents.withLock { $0.data }
  }

  /// The stored standups, or `nil` when nothing is stored or it cannot be read.
  public var savedStandups: IdentifiedArrayOf<Standup>? {
    contents.withLock { $0.storedStandups }
  }

  /// The number of saves that wrote.
  public var saveCount: Int {
    contents.withLock { $0.saveCount }
  }

  /// The data kept aside by ``StorageClient/keepUnreadableData``, oldest first: the bytes of
  /// data that could be read but not decoded, `nil` for data that could not be read at all.
  public var backups: [Data?] {
    contents.withLock { $0.backups }
  }

  /// Stores `standups` as another instance of the app would, behind the client's back.
  public func saveElsewhere(_ standups: IdentifiedArrayOf<Standup>) {
    let data = try? StandupsFile(standups: standups).encoded()
    contents.withLock { $0.data = data }
  }

  /// Makes every later save fail with `failure`, or succeed again with `nil`.
  public func failSaves(with failure: StorageError?) {
    contents.withLock { $0.saveFailure = failure }
  }

  /// Makes keeping unreadable data aside fail with `failure`, or succeed again with `nil`.
  public func failBackups(with failure: StorageError?) {
    contents.withLock { $0.backupFailure = failure }
  }

  /// Runs `hook` at the start of every later load: a test can hold a load there, to act while
  /// it is still running.
  public func beforeEachLoad(_ hook: @escaping @Sendable () async -> Void) {
    contents.withLock { $0.beforeLoad = hook }
  }

  /// Runs `hook`, with the save's revision, at the start of every later save: a test can hold
  /// a save there to order writes as it likes.
  public func beforeEachSave(_ hook: @escaping @Sendable (_ revision: Int) async -> Void) {
    contents.withLock { $0.beforeSave = hook }
  }

  /// A client that reads and writes this storage.
  public var client: StorageClient {
    StorageClient(
      load: { [self] in
        if let beforeLoad = contents.withLock({ $0.beforeLoad }) {
          await beforeLoad()
        }
        return try contents.withLock { contents throws(StorageError) in try Self.load(&contents) }
      },
      save: { [self] standups, basedOn, revision in
        if let beforeSave = contents.withLock({ $0.beforeSave }) {
          await beforeSave(revision)
        }
        let data = try StandupsFile(standups: standups).encoded()
        return try contents.withLock { contents throws(StorageError) -> SaveOutcome in
          guard !contents.policy.isStale(revision) else { return .saved }
          try contents.policy.checkWritable()
          if let stored = contents.storedStandups,
            let change = contents.policy.change(to: stored, basedOn: basedOn)
          {
            return .storedDataChanged(change)
          }
          if let failure = contents.saveFailure { throw failure }
          contents.data = data
          contents.saveCount += 1
          contents.policy.didWrite(standups, revision: revision)
          return .saved
        }
      },
      storedChange: { [self] in
        contents.withLock { contents in
          guard let stored = contents.storedStandups else { return nil }
          return contents.policy.change(to: stored, basedOn: nil)
        }
      },
      keepUnreadableData: { [self] in
        try contents.withLock { contents throws(StorageError) -> String? in
          guard contents.policy.knowledge == .unread else { return nil }
          if let failure = contents.backupFailure { throw failure }
          if contents.unreadable != nil {
            contents.backups.append(nil)
            contents.unreadable = nil
            contents.data = nil
          } else {
            contents.backups.append(contents.data)
          }
          contents.policy.didKeepUnreadData()
          return "memory:backup-\(contents.backups.count)"
        }
      }
    )
  }

  private static func load(_ contents: inout Contents) throws(StorageError) -> StoredStandups {
    if let problem = contents.unreadable {
      contents.policy.didLoad(.unread)
      throw .unreadable(problem)
    }
    guard let data = contents.data else {
      contents.policy.didLoad(.nothingToLose)
      return StoredStandups(standups: [])
    }
    do throws(StandupsFileError) {
      let file = try StandupsFile.decode(data)
      contents.policy.didLoad(
        file.isFromNewerRelease ? .newerRelease(file.formatVersion) : .read,
        standups: file.standups)
      return StoredStandups(standups: file.standups, formatVersion: file.formatVersion)
    } catch {
      contents.policy.didLoad(StandupsFileStore.knowledge(after: error))
      throw .corrupt(error)
    }
  }
}
