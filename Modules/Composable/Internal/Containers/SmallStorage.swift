/// No element or one held inline, and more in a `Many` collection: the storage of `SmallSet` and
/// `SmallArray`, and the reading they share.
///
/// The runtime's tables hold mostly one element per entry (one task per cancellation key, one
/// key per task, one live child per navigation slot), and an inline element costs no allocation
/// to store or to free.
enum SmallStorage<Many: Collection> {
  case empty
  case one(Many.Element)
  case many(Many)

  var isEmpty: Bool {
    if case .empty = self { return true }
    return false
  }

  func contains(where predicate: (Many.Element) -> Bool) -> Bool {
    switch self {
    case .empty: false
    case .one(let element): predicate(element)
    case .many(let elements): elements.contains(where: predicate)
    }
  }

  /// Calls `body` with every element, in the collection's order, without allocating an
  /// iterator.
  func visit(_ body: (Many.Element) -> Void) {
    switch self {
    case .empty:
      return
    case .one(let element):
      body(element)
    case .many(let elements):
      for element in elements { body(element) }
    }
  }
}

extension SmallStorage: Sendable where Many: Sendable, Many.Element: Sendable {}
