/// Values kept in numbered slots: inserting one returns its slot, and removing it frees the slot
/// for the next.
///
/// The runtime finds a running task by its number when the task starts, when it is cancelled
/// and when it finishes, and a send's group does the same for the tasks it gains and loses; an
/// array index costs nothing next to hashing the number into a dictionary each time. A vacant
/// slot holds a placeholder rather than `nil`, so that reading or changing one field of a large
/// element does not copy the whole element out of the array and back, as an optional would.
struct Slots<Element> {
  /// Every slot, in order; a vacant one holds the placeholder.
  private(set) var elements: [Element] = []
  private var vacant: [Int] = []
  private let placeholder: Element
  /// The number of occupied slots.
  private(set) var count = 0

  /// Creates empty slots, whose vacant ones will hold `placeholder`.
  init(placeholder: Element) {
    self.placeholder = placeholder
  }

  /// The slot the next ``insert(_:)`` uses.
  var nextSlot: Int {
    vacant.last ?? elements.count
  }

  /// Puts `element` in the slot ``nextSlot`` named, and returns it.
  @discardableResult
  mutating func insert(_ element: consuming Element) -> Int {
    count += 1
    if let slot = vacant.popLast() {
      elements[slot] = element
      return slot
    }
    elements.append(element)
    return elements.count - 1
  }

  /// Changes the element in `slot` in place.
  mutating func modify<Result>(_ slot: Int, _ body: (inout Element) -> Result) -> Result {
    body(&elements[slot])
  }

  /// Takes the element out of `slot`, which must be occupied, and frees the slot.
  @discardableResult
  mutating func remove(at slot: Int) -> Element {
    var element = placeholder
    swap(&element, &elements[slot])
    count -= 1
    if count == 0 {
      // NB: With nothing left, the slots start again from the first, keeping their memory.
      elements.removeAll(keepingCapacity: true)
      vacant.removeAll(keepingCapacity: true)
    } else {
      vacant.append(slot)
    }
    return element
  }
}

extension Slots: Sendable where Element: Sendable {}
