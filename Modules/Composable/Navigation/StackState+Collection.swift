// NB: Not `MutableCollection`: its algorithms (sorting, partitioning, swapping) move values
// between positions while the IDs stay put, which would give elements each other's identity.
extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  /// The position of the bottom element.
  public var startIndex: Int { 0 }

  /// The position after the top element.
  public var endIndex: Int { storage.elements.count }

  /// The element at a position, counting from the bottom.
  public subscript(position: Int) -> Element {
    storage.elements.values[position]
  }

  /// Removes every element.
  ///
  /// A stack that shares its storage with a copy starts over with empty storage instead of
  /// copying elements only to remove them.
  ///
  /// - Parameter keepCapacity: Whether to keep the storage's capacity.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    guard !isEmpty else { return }
    var removals = storage.removals
    removals.record(storage.elements.keys)
    if isKnownUniquelyReferenced(&storage) {
      storage.elements.removeAll(keepingCapacity: keepCapacity)
      storage.version = StackChanges.nextVersion()
      storage.removals = removals
    } else {
      storage = Storage([:], removals: removals)
    }
  }

  /// Removes the elements that match `shouldBeRemoved`; the others keep their IDs.
  ///
  /// - Parameter shouldBeRemoved: Whether to remove an element.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let ids = try storage.elements.filter { try shouldBeRemoved($0.value) }.map(\.key)
    guard !ids.isEmpty else { return }
    makeUnique()
    for id in ids {
      storage.elements.removeValue(forKey: id)
    }
    storage.recordChange()
    storage.removals.record(ids)
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
    storage.recordChange()
    storage.removals.record(storage.elements.keys[subrange])
    storage.elements.removeSubrange(subrange)
    for (offset, element) in newElements.enumerated() {
      storage.elements.updateValue(
        element,
        forKey: newID(),
        insertingAt: subrange.lowerBound + offset
      )
    }
  }

  /// The storage's identity, for tests that check that writes happen in place.
  package var storageIdentity: ObjectIdentifier {
    ObjectIdentifier(storage)
  }
}

extension StackState {
  /// Whether an element with the given ID is on the stack.
  package func contains(id: StackElementID) -> Bool {
    storage.elements.index(forKey: id) != nil
  }
}
