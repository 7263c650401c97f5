/// A type-erased hashable value that is cheap to hash, compare and copy: the hash is computed
/// once, equality looks at the values only when their types and hashes already match, and a
/// copy is plain memory and at most one retain.
///
/// Cancellation keys and navigation paths are dictionary keys on every effect start and
/// cancellation; `AnyHashable` would re-derive conformances on each comparison. The hash mixes
/// in the value's type, so identifiers whose values all hash alike (empty structs, single-case
/// enums) still spread over the table; equality is exact-type, so `1` and `Int8(1)` differ.
///
/// The value is never held in an existential (`any Hashable`), which every copy of a key would
/// copy through the value's witnesses: a trivial value of at most 16 bytes (enum cases,
/// integers, UUIDs, stack element IDs) is kept as its bytes, any other in a box of its own.
@usableFromInline
package struct HashableIdentity: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  let bytes: Bytes
  @usableFromInline
  let box: (any IdentityBox)?
  @usableFromInline
  let valueType: any (Hashable & Sendable).Type
  @usableFromInline
  let hash: Int

  @usableFromInline
  typealias Bytes = (UInt64, UInt64)

  /// The identity of `value`.
  ///
  /// Inlinable so that an identifier's identity is made in the feature that names it,
  /// specialised for the identifier's type: copying its bytes and hashing it then need no
  /// metadata.
  @inlinable
  package init<Value: Hashable & Sendable>(_ value: Value) {
    if _isPOD(Value.self), MemoryLayout<Value>.size <= MemoryLayout<Bytes>.size,
      MemoryLayout<Value>.alignment <= MemoryLayout<Bytes>.alignment
    {
      var bytes: Bytes = (0, 0)
      withUnsafeMutableBytes(of: &bytes) { $0.storeBytes(of: value, as: Value.self) }
      self.bytes = bytes
      self.box = nil
    } else {
      self.bytes = (0, 0)
      self.box = ValueBox(value)
    }
    self.valueType = Value.self
    // NB: Values of two types that hash alike never collide: the type's address is mixed into
    // the value's hash (`HashableIdentityTests`).
    var hasher = Hasher()
    hasher.combine(value)
    self.hash = hasher.finalize() ^ Int(bitPattern: ObjectIdentifier(Value.self))
  }

  /// The value, when it is of type `Value`.
  package func value<Value: Hashable & Sendable>(as _: Value.Type) -> Value? {
    guard holds(Value.self) else { return nil }
    guard let box else { return Self.load(bytes, as: Value.self) }
    return unsafeDowncast(box, to: ValueBox<Value>.self).value
  }

  /// The value, type-erased.
  package var base: any Hashable & Sendable {
    func open<Value: Hashable & Sendable>(_: Value.Type) -> any Hashable & Sendable {
      // `valueType` is the value's type, so the value is there.
      value(as: Value.self).unsafelyUnwrapped
    }
    return open(valueType)
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.hash == rhs.hash, lhs.valueType == rhs.valueType else { return false }
    // NB: Equal bytes of one trivial type are an equal value; other bytes go to the type's `==`,
    // and an identity equals its own copy even for a NaN (`HashableIdentityTests`).
    if let left = lhs.box, let right = rhs.box {
      return left === right || left.isEqual(to: right)
    }
    if lhs.bytes == rhs.bytes { return true }
    func isEqual<Value: Hashable>(_: Value.Type) -> Bool {
      load(lhs.bytes, as: Value.self) == load(rhs.bytes, as: Value.self)
    }
    return isEqual(lhs.valueType)
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// Whether the value is of type `Value`.
  package func holds<Value>(_: Value.Type) -> Bool {
    valueType == Value.self
  }

  @usableFromInline
  package var description: String {
    "\(base)"
  }

  private static func load<Value>(_ bytes: Bytes, as _: Value.Type) -> Value {
    withUnsafeBytes(of: bytes) { $0.load(as: Value.self) }
  }
}

/// A value that is not trivial, on the heap, so that an identity holding it copies with one
/// retain.
@usableFromInline
protocol IdentityBox: AnyObject, Sendable {
  /// Whether `other`, which holds a value of the same type, holds an equal value.
  func isEqual(to other: any IdentityBox) -> Bool
}

@usableFromInline
final class ValueBox<Value: Hashable & Sendable>: IdentityBox {
  @usableFromInline
  let value: Value

  @usableFromInline
  init(_ value: Value) {
    self.value = value
  }

  @usableFromInline
  func isEqual(to other: any IdentityBox) -> Bool {
    value == unsafeDowncast(other, to: Self.self).value
  }
}
