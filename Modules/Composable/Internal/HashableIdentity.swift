/// A type-erased hashable value that is cheap to hash and compare: the hash is computed once,
/// and equality looks at the values only when their types and hashes already match.
///
/// Cancellation keys and navigation paths are dictionary keys on every effect start and
/// cancellation; `AnyHashable` would re-derive conformances on each comparison. The hash mixes
/// in the value's type, so identifiers whose values all hash alike (empty structs, single-case
/// enums) still spread over the table; equality is exact-type, so `1` and `Int8(1)` differ.
package struct HashableIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  // NB: The initializer takes only `Sendable` values, so the box holds nothing that could race.
  package let base: any Hashable
  private let type: ObjectIdentifier
  private let hash: Int

  package init<Value: Hashable & Sendable>(_ value: Value) {
    self.base = value
    self.type = ObjectIdentifier(Value.self)
    var hasher = Hasher()
    hasher.combine(type)
    hasher.combine(value)
    self.hash = hasher.finalize()
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.type == rhs.type, lhs.hash == rhs.hash else { return false }
    // NB: Both values are opened and the right one is reinterpreted as the left one's type
    // rather than cast: `type` says both were made from the same concrete type (an existential
    // cannot be one, as none conforms to `Hashable`), so the cast could only succeed, and a
    // dynamic cast costs more than the comparison. It runs on every registry lookup that finds
    // its key.
    func isEqual<Left: Hashable, Right: Hashable>(_ left: Left, _ right: Right) -> Bool {
      left == unsafeBitCast(right, to: Left.self)
    }
    return isEqual(lhs.base, rhs.base)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// Whether the value is of type `Value`.
  package func holds<Value>(_: Value.Type) -> Bool {
    type == ObjectIdentifier(Value.self)
  }

  package var description: String {
    "\(base)"
  }
}
