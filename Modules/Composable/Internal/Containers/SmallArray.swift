/// An array that holds no element or one without allocating.
///
/// The cancellation keys of an effect are mostly none or one (the identifier it is cancellable
/// under), and they are built up as a walk descends into an effect and kept for as long as its
/// task runs: an `Array` would allocate as each task starts and free as it finishes.
struct SmallArray<Element> {
  private var storage = SmallStorage<[Element]>.empty

  init() {}

  init(_ elements: [Element]) {
    switch elements.count {
    case 0: storage = .empty
    case 1: storage = .one(elements[0])
    default: storage = .many(elements)
    }
  }

  mutating func append(_ element: Element) {
    switch storage {
    case .empty:
      storage = .one(element)
    case .one(let first):
      storage = .many([first, element])
    case .many(var elements):
      // A placeholder parked first keeps the array uniquely referenced: appending copies nothing.
      storage = .empty
      elements.append(element)
      storage = .many(elements)
    }
  }

  var count: Int {
    switch storage {
    case .empty: 0
    case .one: 1
    case .many(let elements): elements.count
    }
  }

  /// Removes the last `k` elements of the `count` the array holds.
  ///
  /// The caller says how many elements there are, so that removing all is an assignment.
  mutating func removeLast(_ k: Int, of count: Int) {
    precondition(k <= count, "Removing more elements than a SmallArray holds")
    guard k > 0 else { return }
    guard k < count else {
      storage = .empty
      return
    }
    guard case .many(var elements) = storage else {
      preconditionFailure("A SmallArray holds fewer elements than its caller counted")
    }
    storage = .empty
    elements.removeLast(k)
    storage = elements.count == 1 ? .one(elements[0]) : .many(elements)
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
