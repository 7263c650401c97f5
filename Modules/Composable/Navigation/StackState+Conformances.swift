public import CustomDump
import Dependencies
public import OrderedCollections

extension StackState: Equatable where Element: Equatable {
  /// Whether two stacks have the same IDs and equal elements, in the same order.
  ///
  /// Copies that share storage compare equal without looking at the elements. Inlinable, so that
  /// comparing a feature's stacks is specialised for its element type.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.storage === rhs.storage { return true }
    return lhs.storage.elements == rhs.storage.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes the IDs and the elements.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.elements)
  }
}

// `@unchecked`: the storage is only mutated while uniquely referenced (copy-on-write).
extension StackState: @unchecked Sendable where Element: Sendable {}

extension StackState: Decodable where Element: Decodable {
  /// Decodes the elements, bottom first, and gives them new IDs.
  ///
  /// IDs describe a running session, not data, so they are not stored.
  public init(from decoder: any Decoder) throws {
    try self.init([Element](from: decoder))
  }
}

extension StackState: Encodable where Element: Encodable {
  /// Encodes the elements, bottom first, without their IDs.
  public func encode(to encoder: any Encoder) throws {
    try Array(storage.elements.values).encode(to: encoder)
  }
}

extension StackState: CustomDumpReflectable {
  /// Shows each element under its ID, as in `#0: .detail(…)`.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: storage.elements.map { Mirror.Child(label: "\($0.key)", value: $0.value) },
      displayStyle: .struct
    )
  }
}

extension StackState: CustomStringConvertible {
  /// The elements with their IDs.
  public var description: String {
    String(customDumping: self)
  }
}
