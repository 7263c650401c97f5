public import CasePaths
import Dependencies
import IssueReporting
import OrderedCollections

// Adding, replacing and removing elements by ID; every change to the IDs records itself for
// `forEach` (`didChangeIDs(removing:)`).

extension StackState {
  /// Creates a stack from a sequence of elements, bottom first, with new IDs.
  ///
  /// - Parameter elements: The elements.
  public init(_ elements: some Sequence<Element>) {
    @Dependency(\.stackElementID) var nextID
    var dictionary = OrderedDictionary<StackElementID, Element>()
    for element in elements {
      dictionary[nextID()] = element
    }
    self.storage = Storage(dictionary)
  }

  /// The element with the given ID, or `nil`.
  ///
  /// Setting a value replaces the element in place; setting `nil` removes it (and only it).
  ///
  /// ```swift
  /// state.path[id: id] = nil
  /// ```
  public subscript(id id: StackElementID) -> Element? {
    get { storage.elements[id] }
    set {
      makeUnique()
      let count = storage.elements.count
      storage.elements[id] = newValue
      didWrite(id: id, countBefore: count)
    }
    _modify {
      makeUnique()
      let count = storage.elements.count
      yield &storage.elements[id]
      didWrite(id: id, countBefore: count)
    }
  }

  /// The associated value of the element with the given ID, if it is in the given case.
  ///
  /// Writing through it changes the element in place. Writing to an element that is missing or
  /// in another case is reported as an issue and changes nothing.
  ///
  /// ```swift
  /// state.path[id: id, case: \.detail]?.standup.title = "Engineering"
  /// ```
  public subscript<Case>(
    id id: StackElementID,
    case path: CaseKeyPath<Element, Case>,
    fileID fileID: StaticString = #fileID,
    filePath filePath: StaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? where Element: CasePathable {
    get { self[id: id].flatMap { $0[case: path] } }
    set {
      let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      guard let element = self[id: id] else {
        location.reportIssue(
          "Can't modify element \(id) of the stack: there is no element with that ID."
        )
        return
      }
      guard element[case: path] != nil else {
        location.reportIssue(
          """
          Can't modify element \(id) of the stack through \(path): the element is in another \
          case.

            Element:
              \(debugCaseOutput(element))
          """
        )
        return
      }
      guard let newValue else {
        self[id: id] = nil
        return
      }
      modify(id: id) { $0 = path(newValue) }
    }
  }

  /// Adds an element on top of the stack with a new ID.
  ///
  /// - Parameter element: The element to push.
  public mutating func append(_ element: Element) {
    insert(element, id: newID())
  }

  /// Removes the top element.
  ///
  /// > Important: The stack must not be empty.
  ///
  /// - Returns: The removed element.
  @discardableResult
  public mutating func removeLast() -> Element {
    makeUnique()
    if let top = storage.elements.keys.last {
      didChangeIDs(removing: CollectionOfOne(top))
    }
    return storage.elements.removeLast().value
  }

  /// Removes every element above the one with the given ID.
  ///
  /// Does nothing when there is no such element.
  ///
  /// - Parameter id: The ID of the element to keep on top.
  public mutating func pop(to id: StackElementID) {
    guard let index = index(id: id) else { return }
    removeSubrange((index + 1)...)
  }

  /// Adds an element with an ID that was generated elsewhere.
  package mutating func insert(_ element: Element, id: StackElementID) {
    makeUnique()
    didChangeIDs(removing: EmptyCollection())
    storage.elements[id] = element
  }

  /// A new ID for an element added on top: newer than the top element's and unused here.
  ///
  /// A stack built outside a store (with IDs from another generator) can hold IDs the store's
  /// generator has not reached yet; skipping past them keeps IDs unique and growing. A replaying
  /// generator (a test store applying an assertion) is taken at its word: the ID it gives is the
  /// one the reducer used, and writing to it describes that element.
  func newID() -> StackElementID {
    @Dependency(\.stackElementID) var nextID
    if nextID.replaysIDs { return nextID() }
    if let top = storage.elements.keys.last, nextID.peek() <= top {
      nextID.skip(past: top)
    }
    var id = nextID()
    while storage.elements.index(forKey: id) != nil {
      id = nextID()
    }
    return id
  }

  /// Records a write through `subscript(id:)`: a removal or an insertion changes the IDs, and an
  /// inserted ID must never be generated again.
  private mutating func didWrite(id: StackElementID, countBefore: Int) {
    let count = storage.elements.count
    guard count != countBefore else { return }
    if count > countBefore {
      didChangeIDs(removing: EmptyCollection())
      @Dependency(\.stackElementID) var stackElementID
      stackElementID.skip(past: id)
    } else {
      didChangeIDs(removing: CollectionOfOne(id))
    }
  }
}
