/// Where a feature sits in the navigation tree, from the root of its store down.
///
/// Each level a navigation operator adds is two components: the *slot* (which stack, sheet or
/// optional child of the parent, named by its key path) and the *child* in it (a stack element's
/// ID, or the identity of what is presented). Cancellation identifiers are qualified with the
/// path, so the same identifier used in two places names two different groups of effects, and
/// the effect runtime can find the live children of one slot without looking at any other.
@usableFromInline
package struct NavigationIDPath: Hashable, Sendable, CustomStringConvertible {
  /// The components: `nil` at the root, and never empty otherwise (`==` relies on it).
  ///
  /// `nil` rather than an empty array, whose copies retain its shared storage: a root path, that
  /// of every identifier of a store's root feature, copies with no retain.
  private var storage: [HashableIdentity]?
  /// The hash of the whole path, kept up to date as components are appended, because paths
  /// are hashed on every effect start and cancellation.
  private var hash: Int

  package init() {
    self.storage = nil
    self.hash = 0
  }

  /// The components, from the root down: what feature paths and descriptions are made of.
  package var components: [HashableIdentity] {
    storage ?? []
  }

  /// Whether this is the root, with no component; asked without building an empty array for
  /// ``components``.
  package var isRoot: Bool {
    storage == nil
  }

  /// The number of components: even for a feature's path, odd for a slot's.
  package var depth: Int {
    storage?.count ?? 0
  }

  package func appending(identity: HashableIdentity) -> Self {
    var path = self
    path.storage = (storage ?? []) + CollectionOfOne(identity)
    path.hash = Self.hash(hash, identity)
    return path
  }

  /// The path a navigated child runs under: this path, then the slot, then the child in it.
  ///
  /// Built with one allocation, where two appends would make two; it happens on every action a
  /// navigated child receives.
  package func appending(slot: HashableIdentity, child: HashableIdentity) -> Self {
    var components = storage ?? []
    components.reserveCapacity(components.count + 2)
    components.append(slot)
    components.append(child)
    var path = self
    path.storage = components
    path.hash = Self.hash(Self.hash(hash, slot), child)
    return path
  }

  /// The hash of a path whose last component is `identity`, from the hash of the path before.
  private static func hash(_ hash: Int, _ identity: HashableIdentity) -> Int {
    var hasher = Hasher()
    hasher.combine(hash)
    hasher.combine(identity)
    return hasher.finalize()
  }

  /// The path of every feature from the root down to this one, this one included, root first:
  /// every other prefix of a feature's path, since each level adds a slot and a child.
  package var featurePaths: [Self] {
    var paths = [Self()]
    let components = self.components
    var path = Self()
    for index in stride(from: 0, to: components.count - 2, by: 2) {
      path = path.appending(slot: components[index], child: components[index + 1])
      paths.append(path)
    }
    if !isRoot { paths.append(self) }
    return paths
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.hash == rhs.hash && lhs.storage == rhs.storage
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  @usableFromInline
  package var description: String {
    isRoot ? "root" : components.map(\.description).joined(separator: " → ")
  }
}

extension HashableIdentity {
  /// The identity of a slot, the component of a navigation path that names one stack,
  /// presentation or optional child of a feature: the key path to its state.
  @usableFromInline
  package static func slot(_ keyPath: AnyKeyPath) -> Self {
    Self(NavigationSlot(keyPath: keyPath))
  }
}

/// A slot of a navigation path: the key path to the state of a stack, a presentation or an
/// optional child.
private struct NavigationSlot: Hashable, @unchecked Sendable, CustomStringConvertible {
  // `@unchecked`: key paths are immutable values, safe to hash and compare from any thread.
  let keyPath: AnyKeyPath

  var description: String {
    "\(keyPath)"
  }
}
