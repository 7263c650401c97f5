/// A type-erased hashable value that is cheap to hash and compare: the hash is computed once,
/// and equality looks at the values only when their types and hashes already match.
///
/// Cancellation keys and navigation paths are dictionary keys on every effect start and
/// cancellation; `AnyHashable` would re-derive conformances on each comparison.
package struct HashableIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  // NB: Only `Sendable` values are stored (see the initializer), so the box is sendable.
  package let base: any Hashable
  private let type: ObjectIdentifier
  private let hash: Int

  package init<Value: Hashable & Sendable>(_ value: Value) {
    self.base = value
    self.type = ObjectIdentifier(Value.self)
    self.hash = value.hashValue
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.type == rhs.type, lhs.hash == rhs.hash else { return false }
    func isEqual<Value: Hashable>(_ value: Value) -> Bool {
      (rhs.base as? Value) == value
    }
    return isEqual(lhs.base)
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  package var description: String {
    "\(base)"
  }
}
