package import ConcurrencyExtras
package import Dependencies

/// Where a feature sits in the navigation tree: one component per stack element or
/// presentation between the root and the feature.
///
/// Cancellation identifiers are qualified with it, so that the same identifier used by two
/// places in the tree names two different groups of effects.
package struct NavigationIDPath: Hashable, Sendable, CustomStringConvertible {
  package private(set) var components: [AnyHashableSendable]

  package init() {
    self.components = []
  }

  package func appending(_ component: some Hashable & Sendable) -> Self {
    var path = self
    path.components.append(AnyHashableSendable(component))
    return path
  }

  /// Whether this path is `prefix` or lies under it.
  package func hasPrefix(_ prefix: Self) -> Bool {
    components.count >= prefix.components.count
      && components.starts(with: prefix.components)
  }

  /// The path one level up, or `nil` at the root.
  package var parent: Self? {
    guard !components.isEmpty else { return nil }
    var path = self
    path.components.removeLast()
    return path
  }

  package var description: String {
    components.isEmpty ? "root" : components.map { "\($0.base)" }.joined(separator: " → ")
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
