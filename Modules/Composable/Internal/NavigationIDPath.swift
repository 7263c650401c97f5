package import Dependencies

/// Where a feature sits in the navigation tree: one component per stack element or
/// presentation between the root and the feature.
///
/// Cancellation identifiers are qualified with it, so that the same identifier used by two
/// places in the tree names two different groups of effects.
package struct NavigationIDPath: Hashable, Sendable, CustomStringConvertible {
  package private(set) var components: [HashableIdentity]
  /// The hash of the whole path, kept up to date as components are appended, because paths
  /// are hashed on every effect start and cancellation.
  private var hash: Int

  package init() {
    self.components = []
    self.hash = 0
  }

  package func appending(_ component: some Hashable & Sendable) -> Self {
    appending(identity: HashableIdentity(component))
  }

  private func appending(identity: HashableIdentity) -> Self {
    var path = self
    path.components.append(identity)
    var hasher = Hasher()
    hasher.combine(hash)
    hasher.combine(identity)
    path.hash = hasher.finalize()
    return path
  }

  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.hash == rhs.hash && lhs.components == rhs.components
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }

  /// Whether this path is `prefix` or lies under it.
  package func hasPrefix(_ prefix: Self) -> Bool {
    components.count >= prefix.components.count
      && components.starts(with: prefix.components)
  }

  /// Whether this path lies exactly one level under `parent`.
  package func isChild(of parent: Self) -> Bool {
    components.count == parent.components.count + 1
      && components.starts(with: parent.components)
  }

  package var description: String {
    components.isEmpty ? "root" : components.map(\.description).joined(separator: " → ")
  }
}

extension DependencyValues {
  /// The navigation scope of the reducer that is running; navigation operators extend it for
  /// their children.
  package var navigationIDPath: NavigationIDPath {
    get { self[NavigationIDPathKey.self] }
    set { self[NavigationIDPathKey.self] = newValue }
  }
}

private enum NavigationIDPathKey: DependencyKey {
  static let liveValue = NavigationIDPath()
  static let testValue = NavigationIDPath()
}
