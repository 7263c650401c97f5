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
/// can read exactly what was saved, and it can be told to fail.
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
    var saveCount = 0
    var failure: StorageError?
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

  /// The stored bytes, as they would be in the file.
  public var data: Data? {
    contents.withLock { $0.data }
  }

  /// The stored standups, or `nil` when nothing is stored or it cannot be read.
  public var savedStandups: IdentifiedArrayOf<Standup>? {
    data.flatMap { try? StandupsFile.decode($0).standups }
  }

  /// The number of successful saves.
  public var saveCount: Int {
    contents.withLock { $0.saveCount }
  }

  /// Makes every later save fail with `failure`, or succeed again with `nil`.
  public func failSaves(with failure: StorageError?) {
    contents.withLock { $0.failure = failure }
  }

  /// A client that reads and writes this storage.
  public var client: StorageClient {
    StorageClient(
      load: { [self] in
        guard let data else { return [] }
        do throws(StandupsFileError) {
          return try StandupsFile.decode(data).standups
        } catch {
          throw StorageError.corrupt(error)
        }
      },
      save: { [self] standups in
        let data = try StandupsFile(standups: standups).encoded()
        try contents.withLock { contents in
          if let failure = contents.failure { throw failure }
          contents.data = data
          contents.saveCount += 1
        }
      }
    )
  }
}
