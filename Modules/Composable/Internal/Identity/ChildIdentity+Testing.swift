import Synchronization

/// Counts the child identities worked out by reflection while a counter is bound, so
/// that a test can show it never happens for actions that leave a presentation alone.
package enum ChildIdentityCounting {
  @TaskLocal package static var count: IdentityCount?
}

/// A count of child identities worked out; see ``ChildIdentityCounting``.
package final class IdentityCount: Sendable {
  private let storage = Atomic<Int>(0)

  package init() {}

  /// The identities worked out so far.
  package var value: Int {
    storage.load(ordering: .relaxed)
  }

  func increment() {
    storage.add(1, ordering: .relaxed)
  }
}
