/// The identity of a group of cancellable effects: an identifier at a navigation path.
///
/// The identifier is either a user's (from ``Effect/cancellable(id:cancelInFlight:)``), or a
/// navigated child's, under which a navigation operator registers all of that child's work; a
/// child's key has the child's *slot* as its path, so the runtime can index the live children of
/// each slot.
@usableFromInline
package struct CancellationKey: Hashable, Sendable, CustomStringConvertible {
  package let id: HashableIdentity
  package let path: NavigationIDPath

  @inlinable
  package init(id: some Hashable & Sendable, path: NavigationIDPath) {
    self.init(id: HashableIdentity(id), path: path)
  }

  @usableFromInline
  package init(id: HashableIdentity, path: NavigationIDPath) {
    self.id = id
    self.path = path
  }

  /// The key of the identifier `id` at the navigation path of the running reducer.
  @inlinable
  static func inCurrentScope(id: some Hashable & Sendable) -> Self {
    Self(id: id, path: ReducerContext.currentNavigationIDPath)
  }

  @usableFromInline
  package var description: String {
    "\(id) in \(path)"
  }
}

// MARK: - The key of a child's work

extension CancellationKey {
  /// The key of all the work of the child `child` of the navigation slot `slot`.
  package static func navigation(slot: NavigationIDPath, child: HashableIdentity) -> Self {
    Self(id: NavigatedChildID(child: child), path: slot)
  }

  /// Whether this is a navigated child's key.
  var isNavigation: Bool {
    id.holds(NavigatedChildID.self)
  }

  /// The child whose work the key covers, when it is a navigated child's key.
  var navigatedChild: HashableIdentity? {
    guard isNavigation else { return nil }
    return id.value(as: NavigatedChildID.self)?.child
  }
}

/// The identifier of a navigated child's key: a type of its own, so that no user's identifier
/// equals it.
struct NavigatedChildID: Hashable, Sendable, CustomStringConvertible {
  let child: HashableIdentity

  var description: String {
    "child \(child)"
  }
}
