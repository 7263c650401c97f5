/// A set that keeps zero or one element inline and only allocates for more.
///
/// Almost every cancellation key has one running task and almost every identifier one path,
/// so the runtime's indexes would otherwise allocate a `Set` per effect.
struct SmallSet<Element: Hashable>: Sequence {
  private enum Storage {
    case empty
    case one(Element)
    case many(Set<Element>)
  }

  private var storage: Storage

  init(_ element: Element) {
    self.storage = .one(element)
  }

  var isEmpty: Bool {
    if case .empty = storage { return true }
    return false
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
      // NB: Parking a placeholder first keeps the set uniquely referenced, so inserting does
      // not copy it.
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

  func makeIterator() -> AnyIterator<Element> {
    switch storage {
    case .empty:
      return AnyIterator { nil }
    case .one(let element):
      var next: Element? = element
      return AnyIterator {
        defer { next = nil }
        return next
      }
    case .many(let elements):
      return AnyIterator(elements.makeIterator())
    }
  }
}
