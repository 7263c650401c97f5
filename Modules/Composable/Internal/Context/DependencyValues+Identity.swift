package import Dependencies

/// Whether two `DependencyValues` are the same values: the question an effect's task asks to
/// know whether it has to bind the dependencies its run was made with
/// (`EffectWalk.binding(for:)`). The dependencies themselves cannot be compared.
///
/// It compares the two values' bytes, which is sound while `DependencyValues` holds only
/// references to storage that is copied on write: equal bytes are then the same storage, so the
/// same dependencies, and an override, which writes, has storage of its own. That is
/// swift-dependencies' private layout, so it is checked once, by reflection, before it is
/// relied on (``layoutIsAsAssumed``): a value that holds anything else, or whose size is not the
/// sum of those references, is never called identical to another, and every task binds its
/// dependencies, which is correct and only slower.
///
/// Guarded by `DependencyValuesIdentityTests` (an override never compares as identical; the
/// layout is the assumed one) and `StoreTests` (dependencies reach every run).
extension DependencyValues {
  /// Whether these values hold the same storage as `other`; `false` whenever that cannot be
  /// told.
  package func isIdentical(to other: DependencyValues) -> Bool {
    guard Self.layoutIsAsAssumed else { return false }
    return withUnsafeBytes(of: self) { left in
      withUnsafeBytes(of: other) { right in
        // Word by word: the layout check makes the size a whole number of references.
        stride(from: 0, to: left.count, by: MemoryLayout<UInt>.size).allSatisfy { offset in
          left.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            == right.loadUnaligned(fromByteOffset: offset, as: UInt.self)
        }
      }
    }
  }

  /// Whether `DependencyValues` is made only of references to copy-on-write storage, checked
  /// once on the values this process starts with.
  package static let layoutIsAsAssumed = isMadeOfReferences(DependencyValues())

  /// Whether `value` is made only of references to storage that a write never changes in place
  /// while it is shared (class instances and native dictionaries), and nothing else in its
  /// size.
  package static func isMadeOfReferences<Value>(_ value: Value) -> Bool {
    let children = Mirror(reflecting: value).children
    guard !children.isEmpty else { return false }
    var referencesSize = 0
    for child in children {
      guard isOneReference(child.value) else { return false }
      referencesSize += MemoryLayout<UnsafeRawPointer>.size
    }
    return MemoryLayout<Value>.size == referencesSize
  }

  /// Whether `value` is stored as one reference to storage that a write never changes in place
  /// while it is shared: an instance of a class, or a native dictionary.
  private static func isOneReference(_ value: Any) -> Bool {
    if type(of: value) is AnyClass { return true }
    guard value is [ObjectIdentifier: any Sendable] else { return false }
    return MemoryLayout<[ObjectIdentifier: any Sendable]>.size
      == MemoryLayout<UnsafeRawPointer>.size
  }
}
