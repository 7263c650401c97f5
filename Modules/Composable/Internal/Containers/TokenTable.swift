/// Values kept under numbered tokens: inserting one returns its token, and removing it frees the
/// token for the next.
///
/// The runtime finds a running task by its token when the task starts, when it is cancelled and
/// when it finishes, and a group does the same for the tasks it gains and loses; an array index
/// costs nothing next to hashing a number into a dictionary each time. A free token's place
/// holds a vacant element rather than `nil`, so that reading or changing one field of a large
/// element does not copy the whole element out of the array and back, as an optional would.
struct TokenTable<Element> {
  /// Every element in token order; a free token's place holds ``vacant``.
  private(set) var elements: [Element] = []
  private var freeTokens: [Int] = []
  /// The number of tokens in use.
  private(set) var count = 0
  /// What the place of a free token holds.
  private let vacant: Element

  init(vacant: Element) {
    self.vacant = vacant
  }

  /// The token the next ``insert(_:)`` returns.
  var nextToken: Int {
    freeTokens.last ?? elements.count
  }

  /// Keeps `element` under the token ``nextToken`` named, and returns it.
  @discardableResult
  mutating func insert(_ element: consuming Element) -> Int {
    count += 1
    if let token = freeTokens.popLast() {
      elements[token] = element
      return token
    }
    elements.append(element)
    return elements.count - 1
  }

  /// Changes the element under `token` in place.
  mutating func modify<Result>(_ token: Int, _ body: (inout Element) -> Result) -> Result {
    body(&elements[token])
  }

  /// Takes the element out from under `token`, which must be in use, and frees the token.
  @discardableResult
  mutating func remove(at token: Int) -> Element {
    // Moved out, and a vacant element made in its place: nothing goes through value witnesses.
    let vacant = vacant
    let element = elements.withUnsafeMutableBufferPointer { places in
      precondition(places.indices.contains(token), "Removing a token that was never given")
      let place = places.baseAddress.unsafelyUnwrapped + token
      let element = place.move()
      place.initialize(to: vacant)
      return element
    }
    count -= 1
    if count == 0 {
      // With nothing left, tokens start again from the first, keeping their memory.
      elements.removeAll(keepingCapacity: true)
      freeTokens.removeAll(keepingCapacity: true)
    } else {
      freeTokens.append(token)
    }
    return element
  }
}

extension TokenTable: Sendable where Element: Sendable {}
