/// A navigated child's place: the slot it is in, its component there, and the navigation path
/// its own effects and children run under.
///
/// The paths are built when asked, not when the child receives an action: most of a child's
/// actions start no work and present nothing, and then nothing reads them.
package struct NavigatedScope: Sendable {
  /// The path of the feature the slot belongs to.
  private let parent: NavigationIDPath
  /// The stack or presentation the child is in: the identity of its ``NavigationSlot``, which
  /// the navigation operator builds once.
  private let navigationSlot: HashableIdentity
  /// The child within the slot.
  private let child: Child

  private enum Child: Sendable {
    /// A stack element, kept as its ID: an element's action builds no identity.
    case element(StackElementID)
    case identity(HashableIdentity)
  }

  /// The scope of the element `id` of the stack `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, element id: StackElementID) {
    self.parent = parent
    self.navigationSlot = slot
    self.child = .element(id)
  }

  /// The scope of `child` in `slot` of the feature at `parent`.
  package init(parent: NavigationIDPath, slot: HashableIdentity, child: HashableIdentity) {
    self.parent = parent
    self.navigationSlot = slot
    self.child = .identity(child)
  }

  /// The child's own navigation path.
  package var path: NavigationIDPath {
    parent.appending(slot: navigationSlot, child: childIdentity)
  }

  /// The slot: the parent's path and the stack or presentation the child is in.
  package var slot: NavigationIDPath {
    parent.appending(identity: navigationSlot)
  }

  /// The key all of the child's work is registered under.
  var key: CancellationKey {
    .navigation(slot: slot, child: childIdentity)
  }

  private var childIdentity: HashableIdentity {
    switch child {
    case .element(let id): HashableIdentity(id)
    case .identity(let identity): identity
    }
  }
}
