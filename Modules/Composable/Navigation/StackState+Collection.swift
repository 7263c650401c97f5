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
