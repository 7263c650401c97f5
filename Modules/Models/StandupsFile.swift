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

  /// The format version the file was written in: ``currentFormatVersion`` for files this
  /// release writes, higher for a file from a newer release that could still be read.
  public var formatVersion: Int

  /// Creates a file's contents, in the current format.
  public init(standups: IdentifiedArrayOf<Standup>) {
    self.standups = standups
    self.formatVersion = Self.currentFormatVersion
  }

  /// Whether the file was written by a newer release. Its standups could be read, but writing
  /// them back in this release's format would drop whatever the newer one added.
  public var isFromNewerRelease: Bool {
    formatVersion > Self.currentFormatVersion
  }

  /// Reads a file's contents.
  ///
  /// A file from a newer release is read when its standups still have the shape this release
  /// knows (see ``isFromNewerRelease``); otherwise it fails with
  /// ``StandupsFileError/unsupportedVersion(_:)``.
  ///
  /// - Parameter data: The file's bytes.
  /// - Throws: A ``StandupsFileError`` that says what is wrong and where.
  public static func decode(_ data: Data) throws(StandupsFileError) -> Self {
    let version: Int
    do {
      version = try JSONDecoder().decode(Version.self, from: data).formatVersion
    } catch let error as DecodingError {
      throw StandupsFileError(error)
    } catch {
      throw .malformed(path: "", reason: "The file could not be decoded.")
    }
    guard version >= 1 else {
      throw .malformed(
        path: "formatVersion",
        reason: "The format version must be 1 or later, not \(version)."
      )
    }
    do {
      var file = Self(standups: try JSONDecoder().decode(Envelope.self, from: data).standups)
      file.formatVersion = version
      return file
    } catch let error as DecodingError {
      throw version > currentFormatVersion ? .unsupportedVersion(version) : StandupsFileError(error)
    } catch {
      throw .malformed(path: "", reason: "The file could not be decoded.")
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

  private struct Version: Decodable {
    var formatVersion: Int
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
      self = .notJSON(reason: Self.syntaxReason(context))
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
        reason: "Expected \(Self.noun(for: type))\(Self.found(in: context.debugDescription))."
      )
    case .valueNotFound(let type, let context):
      self = .malformed(
        path: Self.path(context.codingPath),
        reason: "Expected \(Self.noun(for: type)), but found null."
      )
    @unknown default:
      self = .malformed(path: "", reason: "The file could not be decoded.")
    }
  }

  /// What JSON calls the kind of value a Swift type is decoded from.
  private static func noun(for type: Any.Type) -> String {
    let name = "\(type)"
    if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") {
      return "an object"
    }
    if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "a list" }
    if name.hasPrefix("String") || name.hasPrefix("UUID") || name.hasPrefix("Tagged") {
      return "text"
    }
    if name.hasPrefix("Bool") { return "true or false" }
    if ["Int", "Double", "Float", "Decimal", "UInt"].contains(where: name.hasPrefix) {
      return "a number"
    }
    return "a value of another kind"
  }

  /// ", but found …" from a decoder's description of a mismatch, in JSON's words.
  private static func found(in description: String) -> String {
    let kinds = [
      ("string", "text"), ("number", "a number"), ("bool", "true or false"),
      ("dictionary", "an object"), ("array", "a list"), ("null", "null"),
    ]
    let lowered = description.lowercased()
    guard let found = lowered.range(of: "found ") else { return "" }
    let rest = lowered[found.upperBound...]
    guard let kind = kinds.first(where: { rest.contains($0.0) }) else { return "" }
    return ", but found \(kind.1)"
  }

  /// Why the bytes are not JSON, in words, with the line and column when the parser gave them.
  private static func syntaxReason(_ context: DecodingError.Context) -> String {
    let detail = (context.underlyingError as? NSError)?.userInfo["NSDebugDescription"] as? String
    guard let detail, !detail.isEmpty else { return "it could not be parsed." }
    let sentence = detail.prefix(1).lowercased() + detail.dropFirst()
    return sentence.hasSuffix(".") ? sentence : sentence + "."
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
      return "At \(path.isEmpty ? "the top level" : path): \(reason)"
    case .unsupportedVersion(let version):
      return """
        The file was written by a newer release of Standups (format version \(version)), and \
        this one (format version \(StandupsFile.currentFormatVersion)) cannot read it.
        """
    }
  }
}
