public import IdentifiedCollections
public import Models

extension AppFeature {
  /// What the user changed while the standups were loading, kept so that it can be merged into
  /// what loads instead of being replaced by it.
  ///
  /// Each standup changed is kept as it was when loading began (its baseline, when it was on
  /// screen then) and as it is now. Merging applies the difference to the loaded copy: the
  /// fields that changed, the meetings recorded and the meetings deleted. A standup without a
  /// baseline (added meanwhile, or shown by a deep link but missing from the data) is added
  /// whole, and a deleted one is removed.
  public struct ChangesBeforeLoad: Equatable, Sendable {
    private var baseline: IdentifiedArrayOf<Standup> = []
    private var latest: IdentifiedArrayOf<Standup> = []
    private var deleted: Set<Standup.ID> = []

    /// Starts recording, with the standups on screen when loading began.
    public init(baseline: IdentifiedArrayOf<Standup> = []) {
      self.baseline = baseline
    }

    /// Loading begins: remembers how the standups on screen are now, except those already
    /// changed, whose baseline is how they were before their first change.
    public mutating func startLoading(showing onScreen: IdentifiedArrayOf<Standup>) {
      for standup in onScreen where baseline[id: standup.id] == nil && latest[id: standup.id] == nil
      {
        baseline.append(standup)
      }
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
      latest.isEmpty && deleted.isEmpty
    }

    /// Records the new value of a standup (added or changed), and, the first time, what it was
    /// before (`nil` for a new standup, or when no screen showed it any more).
    public mutating func record(_ standup: Standup, previously previous: Standup? = nil) {
      if baseline[id: standup.id] == nil, latest[id: standup.id] == nil, let previous {
        baseline.append(previous)
      }
      deleted.remove(standup.id)
      latest[id: standup.id] = standup
    }

    /// Records that a standup was deleted.
    public mutating func recordDeletion(of id: Standup.ID) {
      latest.remove(id: id)
      deleted.insert(id)
    }

    /// The loaded standups with these changes applied, then any standup still on screen that
    /// neither has.
    func merged(
      into loaded: IdentifiedArrayOf<Standup>,
      alsoShowing onScreen: IdentifiedArrayOf<Standup>
    ) -> IdentifiedArrayOf<Standup> {
      var merged = loaded
      for id in deleted {
        merged.remove(id: id)
      }
      for standup in latest {
        if let stored = merged[id: standup.id], let before = baseline[id: standup.id] {
          merged[id: standup.id] = stored.applyingChanges(from: before, to: standup)
        } else {
          merged[id: standup.id] = standup
        }
      }
      for standup in onScreen where merged[id: standup.id] == nil && !deleted.contains(standup.id) {
        merged.append(standup)
      }
      return merged
    }
  }
}
