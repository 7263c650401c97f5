public import IdentifiedCollections

/// One change the user made to the standups: what a screen did, in terms a store can write row
/// by row.
///
/// The app describes every change it makes to the standups as one of these, and applies it to
/// what it shows; storage applies the same change to what it holds, in one transaction. Both use
/// ``apply(to:)``'s rules, so the two never disagree about what a change means, even when the
/// standups changed elsewhere in between (another instance of the app): an edit changes only
/// what the user changed, and a recorded meeting is never lost.
///
/// ```swift
/// let change = StandupsChange.edited(standup.id, StandupEdit(title: "Design review"))
/// change.apply(to: &state.standups)  // on screen
/// try await storage.apply(change)  // in storage
/// ```
public enum StandupsChange: Equatable, Sendable {
  /// New standups, added at the end of the list. One that is there already is left as it is.
  case added([Standup])
  /// A standup's fields edited (see ``StandupEdit``). A standup that is gone is not brought back.
  case edited(Standup.ID, StandupEdit)
  /// A standup deleted, with its past meetings.
  case deleted(Standup.ID)
  /// A meeting recorded for `standup`. When the standup is gone (deleted elsewhere while the
  /// meeting ran), it comes back as the recorder had it, so the meeting is never lost.
  case meetingRecorded(Meeting, standup: Standup)

  /// The standups the change touches.
  public var standupIDs: [Standup.ID] {
    switch self {
    case .added(let standups): standups.map(\.id)
    case .edited(let id, _), .deleted(let id): [id]
    case .meetingRecorded(_, let standup): [standup.id]
    }
  }

  /// Whether the change deletes something: a standup, or past meetings of one.
  public var isDeletion: Bool {
    switch self {
    case .deleted: true
    case .edited(_, let edit): !edit.meetingsRemoved.isEmpty
    case .added, .meetingRecorded: false
    }
  }

  /// Applies the change to `standups`.
  public func apply(to standups: inout IdentifiedArrayOf<Standup>) {
    switch self {
    case .added(let added):
      for standup in added where standups[id: standup.id] == nil {
        standups.append(standup)
      }
    case .edited(let id, let edit):
      guard var standup = standups[id: id] else { return }
      edit.apply(to: &standup)
      standups[id: id] = standup
    case .deleted(let id):
      standups.remove(id: id)
    case .meetingRecorded(let meeting, let recorded):
      var standup = standups[id: recorded.id] ?? recorded
      standup.record(meeting)
      standups[id: standup.id] = standup
    }
  }
}
