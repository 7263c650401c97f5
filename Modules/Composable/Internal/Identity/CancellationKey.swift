/// The identity of a group of cancellable effects: an identifier at a navigation path.
///
/// The identifier is either a user's (from ``Effect/cancellable(id:cancelInFlight:)``), at the
/// path of the feature that made it, or a navigated child's identity, under which a navigation
/// operator registers all of that child's work, at the path of the child's *slot*, so that the
/// runtime can index the live children of each slot.
///
/// NB: The two never collide, and a key tells which it is by its path's depth: every navigation
/// level adds a slot and a child, so a feature's path is even and a slot's odd, and a user's
/// identifier is registered only at feature paths (`EffectRuntime.expand`). Guarded by
/// `NavigatedChildTests` and `EffectRuntimeTests`.
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
  /// The key of all the work of the child `child` of the navigation slot at `slot`.
  package static func navigation(slot: NavigationIDPath, child: HashableIdentity) -> Self {
    Self(id: child, path: slot)
  }

  /// Whether this is a navigated child's key: one at a slot's path, which is odd.
  var isNavigation: Bool {
    path.depth % 2 == 1
  }

  /// The child whose work the key covers, when it is a navigated child's key.
  var navigatedChild: HashableIdentity? {
    isNavigation ? id : nil
  }
}
