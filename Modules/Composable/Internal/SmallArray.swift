/// An array that holds no element or one without allocating.
///
/// The cancellation keys of an effect are mostly none or one (the identifier it is cancellable
/// under), and they are built up as a walk descends into an effect and kept for as long as its
/// task runs: an `Array` made one allocation to start each task and one to free when it ended.
struct SmallArray<Element> {
  private var storage = SmallStorage<[Element]>.empty

  init() {}

  mutating func append(_ element: Element) {
    switch storage {
    case .empty:
      storage = .one(element)
    case .one(let first):
      storage = .many([first, element])
    case .many(var elements):
      // NB: Parking a placeholder first keeps the array uniquely referenced, so appending does
      // not copy it.
      storage = .empty
      elements.append(element)
      storage = .many(elements)
    }
  }

  func contains(where predicate: (Element) -> Bool) -> Bool {
    storage.contains(where: predicate)
  }

  /// Calls `body` with every element in order, without allocating an iterator.
  func visit(_ body: (Element) -> Void) {
    storage.visit(body)
  }
}

extension SmallArray: Sendable where Element: Sendable {}
