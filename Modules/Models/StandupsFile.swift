public import Foundation
public import IdentifiedCollections

/// The file the app keeps its standups in: a format version and the standups.
///
/// ```json
/// {
///   "formatVersion": 1,
///   "standups": [ { "id": "…", "title": "Design", … } ]
/// }
/// ```
///
/// Each standup is written as documented on its `Codable` conformance: durations in seconds
/// (`durationSeconds`), dates in ISO 8601, themes by name. The version lets a later release
/// migrate old files; a file from a newer release is rejected rather than misread.
public struct StandupsFile: Equatable, Sendable {
  /// The version this code writes.
  public static let currentFormatVersion = 1

  /// The standups, in the order the list shows them.
  public var standups: IdentifiedArrayOf<Standup>

  /// Creates a file's contents.
  public init(standups: IdentifiedArrayOf<Standup>) {
    self.standups = standups
  }

  /// Reads a file's contents.
  ///
  /// - Parameter data: The file's bytes.
  /// - Throws: A ``StandupsFileError`` that says what is wrong and where.
  public static func decode(_ data: Data) throws(StandupsFileError) -> Self {
    do {
      let envelope = try JSONDecoder().decode(Envelope.self, from: data)
      guard envelope.formatVersion == currentFormatVersion else {
        throw StandupsFileError.unsupportedVersion(envelope.formatVersion)
      }
      return Self(standups: envelope.standups)
    } catch let error as StandupsFileError {
      throw error
    } catch let error as DecodingError {
      throw StandupsFileError(error)
    } catch {
      throw .malformed(path: "", reason: "\(error)")
    }
  }

  /// Writes a file's contents as pretty-printed JSON with sorted keys, so that a file changes
  /// only where the data did.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(
      Envelope(formatVersion: Self.currentFormatVersion, standups: standups)
    )
  }

  private struct Envelope: Codable {
    var formatVersion: Int
    var standups: IdentifiedArrayOf<Standup>
  }
}

/// What is wrong with a standups file.
public enum StandupsFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file is not JSON at all.
  case notJSON(reason: String)
  /// The JSON does not have the documented shape at `path` (such as
  /// `standups[0].attendees[1].name`).
  case malformed(path: String, reason: String)
  /// The file was written by a newer release, in a format this one does not know.
  case unsupportedVersion(Int)

  init(_ error: DecodingError) {
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      self = .notJSON(reason: context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    case .dataCorrupted(let context):
      self = .malformed(path: Self.path(context.codingPath), reason: context.debugDescription)
    case .keyNotFound(let key, let context):
      self = .malformed(
        path: Self.path(context.codingPath + [key]),
        reason: "The value is missing."
      )
    case .typeMismatch(let type, let context):
      self = .malformed(
        path: Self.path(context.codingPath),
        reason: "Expected a value of type \(type). \(context.debugDescription)"
      )
    case .valueNotFound(let type, let context):
      self = .malformed(
        path: Self.path(context.codingPath),
        reason: "Expected a value of type \(type), found null."
      )
    @unknown default:
      self = .malformed(path: "", reason: "\(error)")
    }
  }

  private static func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.reduce(into: "") { path, key in
      if let index = key.intValue {
        path += "[\(index)]"
      } else {
        path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
  }

  /// A sentence for people: what is wrong, and where.
  public var description: String {
    switch self {
    case .notJSON(let reason):
      return "The file is not valid JSON: \(reason)"
    case .malformed(let path, let reason):
      return path.isEmpty ? reason : "At \(path): \(reason)"
    case .unsupportedVersion(let version):
      return """
        The file has format version \(version), but this app reads version \
        \(StandupsFile.currentFormatVersion). It was probably written by a newer release.
        """
    }
  }
}
