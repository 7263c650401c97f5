public import IdentifiedCollections

extension Standup {
  /// This standup with the changes that turned `before` into `after`, field by field.
  ///
  /// Each field that changed between the two takes its new value: the title, the length, the
  /// theme, the attendees (as a whole). Meetings recorded since `before` are added, newest first,
  /// and meetings removed since `before` are removed. Everything else keeps this standup's value,
  /// so changes made elsewhere to other fields, and meetings recorded elsewhere, survive.
  ///
  /// ```swift
  /// // Renamed here, a meeting recorded elsewhere: both are kept.
  /// let merged = stored.applyingChanges(from: loaded, to: edited)
  /// ```
  ///
  /// - Parameters:
  ///   - before: The standup as the changes found it.
  ///   - after: The standup with the changes made.
  public func applyingChanges(from before: Standup, to after: Standup) -> Standup {
    var result = self
    if after.title != before.title { result.title = after.title }
    if after.duration != before.duration { result.duration = after.duration }
    if after.theme != before.theme { result.theme = after.theme }
    if after.attendees != before.attendees { result.attendees = after.attendees }
    let added = after.meetings.filter {
      before.meetings[id: $0.id] == nil && result.meetings[id: $0.id] == nil
    }
    result.meetings.removeAll {
      after.meetings[id: $0.id] == nil && before.meetings[id: $0.id] != nil
    }
    for meeting in added.reversed() {
      result.meetings.insert(meeting, at: 0)
    }
    return result
  }
}

extension IdentifiedArray where ID == Standup.ID, Element == Standup {
  /// These standups with the changes that turned `base` into `changed`: a three-way merge in
  /// which `changed` wins where both sides changed the same field.
  ///
  /// This is how two copies of the standups that went their own ways become one — the data file
  /// another instance wrote, and what this one changed since it last read it:
  ///
  /// - A standup changed in `changed` gets those changes field by field
  ///   (``Standup/applyingChanges(from:to:)``): fields and meetings changed on the other side
  ///   are kept.
  /// - A standup added on either side is kept; one added on both sides (the same sample data)
  ///   keeps this side's version and the meetings of both.
  /// - A standup deleted in `changed` is removed, unless the other side changed it since `base`;
  ///   one deleted on the other side stays deleted, unless `changed` changed it. A change always
  ///   beats a deletion, so nothing someone just did is lost.
  ///
  /// ```swift
  /// let merged = stored.applyingChanges(from: lastRead, to: current)
  /// ```
  ///
  /// - Parameters:
  ///   - base: The standups both sides started from.
  ///   - changed: The standups with this side's changes.
  public func applyingChanges(from base: Self, to changed: Self) -> Self {
    var merged = self
    for standup in base where changed[id: standup.id] == nil {
      if merged[id: standup.id] == standup {
        merged.remove(id: standup.id)
      }
    }
    for standup in changed {
      let before = base[id: standup.id]
      guard before != standup else { continue }
      switch (before, merged[id: standup.id]) {
      case (let before?, let stored?):
        merged[id: standup.id] = stored.applyingChanges(from: before, to: standup)
      case (nil, let stored?):
        var both = standup
        both.meetings.append(contentsOf: stored.meetings.filter { both.meetings[id: $0.id] == nil })
        both.meetings.sort { $0.date > $1.date }
        merged[id: standup.id] = both
      case (_, nil):
        merged.append(standup)
      }
    }
    return merged
  }
}
