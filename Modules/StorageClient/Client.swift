public import Dependencies
public import DependenciesMacros
public import IdentifiedCollections
public import Models

/// Loads and saves the standups.
///
/// A missing store is not an error: it loads as no standups. A store that exists but cannot be
/// read as standups fails with ``StorageError/corrupt(_:)``, and is backed up before anything
/// is written over it.
///
/// ```swift
/// @Dependency(\.storageClient) var storage
///
/// let standups = try await storage.load()
/// try await storage.save(standups)
/// ```
@DependencyClient
public struct StorageClient: Sendable {
  /// Loads the standups; no stored data loads as an empty list.
  public var load: @Sendable () async throws -> IdentifiedArrayOf<Standup>

  /// Replaces the stored standups, atomically: a failed save leaves the previous data intact.
  public var save: @Sendable (_ standups: IdentifiedArrayOf<Standup>) async throws -> Void
}

/// Why loading or saving failed.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The stored data exists but is not a standups file this app can read.
  case corrupt(StandupsFileError)
  /// The stored data could not be read.
  case readFailed(String)
  /// The standups could not be written; the previous data is untouched.
  case writeFailed(String)

  /// A sentence for people.
  public var description: String {
    switch self {
    case .corrupt(let error): "The saved standups could not be read. \(error)"
    case .readFailed(let reason): "The saved standups could not be opened: \(reason)"
    case .writeFailed(let reason): "The standups could not be saved: \(reason)"
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
