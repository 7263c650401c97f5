// Not `MutableCollection`: its algorithms move values between positions while the IDs stay
// put, which would give elements each other's identity.
extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  /// The position of the bottom element.
  public var startIndex: Int { 0 }

  /// The position after the top element.
  public var endIndex: Int { storage.elements.count }

  /// The element at a position, counting from the bottom.
  public subscript(position: Int) -> Element {
    storage.elements.values[position]
  }

  /// Replaces the elements in `subrange` with `newElements`, which get new IDs.
  ///
  /// - Parameters:
  ///   - subrange: The positions to replace.
  ///   - newElements: The elements to insert there.
  public mutating func replaceSubrange(
    _ subrange: Range<Int>,
    with newElements: some Collection<Element>
  ) {
    makeUnique()
    didChangeIDs(removing: storage.elements.keys[subrange])
    storage.elements.removeSubrange(subrange)
    for (offset, element) in newElements.enumerated() {
      storage.elements.updateValue(
        element,
        forKey: newID(),
        insertingAt: subrange.lowerBound + offset
      )
    }
  }

  /// Removes every element.
  ///
  /// - Parameter keepCapacity: Whether to keep the storage's capacity.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    guard !isEmpty else { return }
    let removed = ids
    makeUnique()
    didChangeIDs(removing: removed)
    storage.elements.removeAll(keepingCapacity: keepCapacity)
  }

  /// Removes the elements that match `shouldBeRemoved`; the others keep their IDs.
  ///
  /// - Parameter shouldBeRemoved: Whether to remove an element.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let ids = try storage.elements.filter { try shouldBeRemoved($0.value) }.map(\.key)
    guard !ids.isEmpty else { return }
    makeUnique()
    didChangeIDs(removing: ids)
    for id in ids {
      storage.elements.removeValue(forKey: id)
    }
  }

  /// The storage's identity, for tests that check that writes happen in place.
  package var storageIdentity: ObjectIdentifier {
    ObjectIdentifier(storage)
  }
}
