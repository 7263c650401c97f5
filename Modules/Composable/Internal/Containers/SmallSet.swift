/// A set that keeps zero or one element inline and only allocates for more.
///
/// Almost every cancellation key has one running task and almost every navigation slot one live
/// child, so the runtime's indexes would otherwise allocate a `Set` per effect.
struct SmallSet<Element: Hashable> {
  private var storage: SmallStorage<Set<Element>>

  init() {
    self.storage = .empty
  }

  init(_ element: Element) {
    self.storage = .one(element)
  }

  var isEmpty: Bool {
    storage.isEmpty
  }

  func contains(_ element: Element) -> Bool {
    switch storage {
    case .empty: false
    case .one(let existing): existing == element
    case .many(let elements): elements.contains(element)
    }
  }

  mutating func insert(_ element: Element) {
    switch storage {
    case .empty:
      storage = .one(element)
    case .one(let existing):
      if existing != element {
        storage = .many([existing, element])
      }
    case .many(var elements):
      // A placeholder parked first keeps the set uniquely referenced: inserting copies nothing.
      storage = .empty
      elements.insert(element)
      storage = .many(elements)
    }
  }

  /// Removes `element`, returning whether it was there.
  @discardableResult
  mutating func remove(_ element: Element) -> Bool {
    switch storage {
    case .empty:
      return false
    case .one(let existing):
      guard existing == element else { return false }
      storage = .empty
      return true
    case .many(var elements):
      storage = .empty
      let removed = elements.remove(element) != nil
      storage = elements.isEmpty ? .empty : .many(elements)
      return removed
    }
  }

  /// Calls `body` with every element, without allocating an iterator.
  func visit(_ body: (Element) -> Void) {
    storage.visit(body)
  }
}
