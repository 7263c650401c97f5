/// Values kept in numbered slots: inserting one returns its slot, and removing it frees the slot
/// for the next.
///
/// The runtime finds a running task by its number when the task starts, when it is cancelled
/// and when it finishes, and a send's group does the same for the tasks it gains and loses; an
/// array index costs nothing next to hashing the number into a dictionary each time. A vacant
/// slot holds the element type's ``SlotElement/vacant`` rather than `nil`, so that reading or
/// changing one field of a large element does not copy the whole element out of the array and
/// back, as an optional would.
struct Slots<Element: SlotElement> {
  /// Every slot, in order; a vacant one holds ``SlotElement/vacant``.
  private(set) var elements: [Element] = []
  private var vacant: [Int] = []
  /// The number of occupied slots.
  private(set) var count = 0

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
    // NB: Moved out and replaced in place: swapping with a vacant element copied a large element
    // three times, and a vacant element copied from a stored placeholder went through the
    // element's value witnesses, which retain and release every field, empty or not.
    let element = elements.withUnsafeMutableBufferPointer { slots in
      precondition(slots.indices.contains(slot), "Removing from a slot that does not exist")
      let place = slots.baseAddress.unsafelyUnwrapped + slot
      let element = place.move()
      place.initialize(to: Element.vacant)
      return element
    }
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

/// An element of ``Slots``, with what a vacant slot holds.
///
/// A requirement rather than a value stored with the slots, so that a vacant element is made in
/// place, where copying a stored one went through the element's value witnesses.
protocol SlotElement {
  /// What a vacant slot holds.
  static var vacant: Self { get }
}

extension Optional: SlotElement {
  static var vacant: Self { nil }
}
