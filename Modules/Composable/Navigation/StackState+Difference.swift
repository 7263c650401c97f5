import OrderedCollections

extension StackState {
  /// The elements pushed onto and popped off a stack between two of its states.
  ///
  /// A view layer keeps per-screen state (scroll positions, focus, animations) by element ID;
  /// this tells it which screens to create and which to tear down after a change.
  public struct Difference: Equatable, Sendable {
    /// IDs that were in the old stack and are not in the new one, bottom first.
    public var popped: [StackElementID]

    /// IDs that are in the new stack and were not in the old one, bottom first.
    public var pushed: [StackElementID]

    /// Creates a difference.
    public init(popped: [StackElementID], pushed: [StackElementID]) {
      self.popped = popped
      self.pushed = pushed
    }

    /// Whether nothing was pushed or popped.
    public var isEmpty: Bool { popped.isEmpty && pushed.isEmpty }
  }

  /// The IDs of a stack at one moment, for a view layer to diff against later with
  /// ``difference(from:)-(StackState<Element>.Snapshot)``.
  ///
  /// Keeping a snapshot instead of the stack itself keeps no element alive, so the store goes on
  /// writing to elements in place.
  public struct Snapshot: Sendable {
    let ids: OrderedSet<StackElementID>
    let version: UInt64
  }

  /// The IDs of the stack now.
  public var snapshot: Snapshot {
    Snapshot(ids: ids, version: version)
  }

  /// What was pushed and popped since `old` was taken.
  ///
  /// ```swift
  /// let change = store.state.path.difference(from: previous)
  /// previous = store.state.path.snapshot
  /// ```
  ///
  /// - Parameter old: An earlier snapshot of the stack.
  /// - Returns: The popped and pushed IDs.
  public func difference(from old: Snapshot) -> Difference {
    guard version != old.version else { return Difference(popped: [], pushed: []) }
    return Self.difference(from: old.ids, to: ids)
  }

  /// What was pushed and popped to get from `old` to this stack.
  ///
  /// Costs nothing when the IDs did not change (the same version), and otherwise a walk over
  /// the common bottom of the two stacks plus a hash lookup per element above it.
  ///
  /// ```swift
  /// let change = store.state.path.difference(from: previousPath)
  /// for id in change.popped { screens[id] = nil }
  /// for id in change.pushed { screens[id] = ScreenState() }
  /// ```
  ///
  /// - Parameter old: The earlier state of the stack.
  /// - Returns: The popped and pushed IDs.
  public func difference(from old: Self) -> Difference {
    guard storage !== old.storage, version != old.version else {
      return Difference(popped: [], pushed: [])
    }
    return Self.difference(from: old.ids, to: ids)
  }

  private static func difference(
    from oldIDs: OrderedSet<StackElementID>,
    to newIDs: OrderedSet<StackElementID>
  ) -> Difference {
    var commonBottom = 0
    let limit = Swift.min(newIDs.count, oldIDs.count)
    while commonBottom < limit, newIDs[commonBottom] == oldIDs[commonBottom] {
      commonBottom += 1
    }
    return Difference(
      popped: oldIDs[commonBottom...].filter { !newIDs.contains($0) },
      pushed: newIDs[commonBottom...].filter { !oldIDs.contains($0) }
    )
  }
}
