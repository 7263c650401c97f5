public import IdentifiedCollections
public import Models
public import Tagged

/// What other instances (or programs) committed since a client last read them.
public struct ChangesElsewhere: Equatable, Sendable {
  /// Standups added or changed, as they are stored now, in the list's order; every stored
  /// standup when ``isComplete``.
  public var standups: IdentifiedArrayOf<Standup>
  /// Standups deleted.
  public var deleted: [Standup.ID]
  /// Who in the team deleted each of the standups deleted by a change of the team's; a standup
  /// deleted by another instance of the app has none.
  public var deletedBy: [Standup.ID: String] = [:]
  /// Standups changed in a way that cannot be read: they are shown as they were.
  public var unreadable: [UnreadableStandup]
  /// Whether ``standups`` holds every stored standup (the change log could not say what
  /// changed): one shown and not among them was deleted.
  public var isComplete: Bool
  /// The values other processes' saves replaced that are still to be put away, when that list
  /// changed; `nil` when it did not.
  public var replacedValues: [ReplacedValue]?

  /// Creates a report of changes.
  public init(
    standups: IdentifiedArrayOf<Standup> = [],
    deleted: [Standup.ID] = [],
    unreadable: [UnreadableStandup] = [],
    isComplete: Bool = false,
    replacedValues: [ReplacedValue]? = nil
  ) {
    self.standups = standups
    self.deleted = deleted
    self.unreadable = unreadable
    self.isComplete = isComplete
    self.replacedValues = replacedValues
  }

  /// Whether it reports nothing.
  var isEmpty: Bool {
    self == ChangesElsewhere()
  }

  /// The standups that `shown` holds and the storage no longer does.
  public func deletions(from shown: IdentifiedArrayOf<Standup>) -> [Standup.ID] {
    guard isComplete else { return deleted }
    let unreadable = Set(unreadable.map(\.id))
    return shown.ids.filter {
      standups[id: $0] == nil && !unreadable.contains($0.rawValue.uuidString)
    }
  }

  /// Applies the changes to what an app shows: changed standups replaced, new ones added at the
  /// end, deleted ones removed, unreadable ones left as they were.
  public func apply(to shown: inout IdentifiedArrayOf<Standup>) {
    for id in deletions(from: shown) {
      shown.remove(id: id)
    }
    for standup in standups {
      shown[id: standup.id] = standup
    }
  }
}
