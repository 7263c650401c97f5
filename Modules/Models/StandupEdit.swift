public import IdentifiedCollections

/// What the user changed in one standup, and nothing else.
///
/// An edit is the difference between a standup as a screen or form found it and as the user
/// left it. Applied to the standup as it is *now* — which another screen, or another instance of
/// the app, may have changed meanwhile — it changes only what the user changed, so nothing
/// changed elsewhere is written over. That is a three-way merge: the standup when the form
/// opened, the form's result, and the standup now.
///
/// ```swift
/// // The form opened on `opened`; meanwhile someone added Carol to the stored standup.
/// let edit = StandupEdit(from: opened, to: formResult)  // only the title changed
/// let saved = edit.applied(to: stored)  // the new title, and Carol kept
/// ```
///
/// Meetings are never edited once recorded: an edit adds or removes them whole.
public struct StandupEdit: Equatable, Sendable {
  /// The new title, when it changed.
  public var title: String?
  /// The new length, when it changed.
  public var duration: Duration?
  /// The new theme, when it changed.
  public var theme: Theme?
  /// What changed among the attendees, when anything did.
  public var attendees: AttendeesEdit?
  /// Meetings added, newest first.
  public var meetingsAdded: [Meeting]
  /// Meetings removed.
  public var meetingsRemoved: [Meeting.ID]

  /// An edit that changes the given parts.
  public init(
    title: String? = nil,
    duration: Duration? = nil,
    theme: Theme? = nil,
    attendees: AttendeesEdit? = nil,
    meetingsAdded: [Meeting] = [],
    meetingsRemoved: [Meeting.ID] = []
  ) {
    self.title = title
    self.duration = duration
    self.theme = theme
    self.attendees = attendees
    self.meetingsAdded = meetingsAdded
    self.meetingsRemoved = meetingsRemoved
  }

  /// The edit that turns `before` into `after`: each field that differs, the attendees added,
  /// removed, renamed or moved, and the meetings added or removed.
  public init(from before: Standup, to after: Standup) {
    self.init(
      title: after.title == before.title ? nil : after.title,
      duration: after.duration == before.duration ? nil : after.duration,
      theme: after.theme == before.theme ? nil : after.theme,
      attendees: AttendeesEdit(from: before.attendees, to: after.attendees),
      meetingsAdded: after.meetings.filter { before.meetings[id: $0.id] == nil },
      meetingsRemoved: before.meetings.ids.filter { after.meetings[id: $0] == nil }
    )
  }

  /// Whether the edit changes nothing.
  public var isEmpty: Bool {
    self == StandupEdit()
  }

  /// The names of what the edit changes, for people: `["title", "attendees"]`.
  public var changedParts: [String] {
    var parts: [String] = []
    if title != nil { parts.append("title") }
    if duration != nil { parts.append("length") }
    if theme != nil { parts.append("theme") }
    if attendees != nil { parts.append("attendees") }
    if !meetingsAdded.isEmpty {
      parts.append(
        meetingsAdded.count == 1 ? "a meeting added" : "\(meetingsAdded.count) meetings added")
    }
    if !meetingsRemoved.isEmpty {
      parts.append(
        meetingsRemoved.count == 1
          ? "a meeting removed" : "\(meetingsRemoved.count) meetings removed")
    }
    return parts
  }

  /// This edit without anything it removes: for bringing a file in, which never deletes.
  public var withoutRemovals: StandupEdit {
    var edit = self
    edit.meetingsRemoved = []
    edit.attendees = attendees?.withoutRemovals
    return edit
  }

  /// Changes `standup` as the user changed theirs: the fields the edit has, and nothing else.
  public func apply(to standup: inout Standup) {
    if let title { standup.title = title }
    if let duration { standup.duration = duration }
    if let theme { standup.theme = theme }
    if let attendees { attendees.apply(to: &standup.attendees) }
    standup.meetings.removeAll { meetingsRemoved.contains($0.id) }
    for meeting in meetingsAdded.reversed() {
      standup.record(meeting)
    }
  }

  /// `standup` changed as the user changed theirs.
  public func applied(to standup: Standup) -> Standup {
    var standup = standup
    apply(to: &standup)
    return standup
  }
}

/// What changed among a standup's attendees: who was added, removed or renamed, and the order
/// the user left them in.
///
/// Applied to attendees that changed meanwhile, it keeps what it does not know about: an attendee
/// added elsewhere stays, after the ones the user ordered.
public struct AttendeesEdit: Equatable, Sendable {
  /// Attendees added, in the user's order.
  public var added: [Attendee]
  /// Attendees removed.
  public var removed: [Attendee.ID]
  /// Attendees whose name changed, with their new names.
  public var renamed: [Attendee]
  /// The order the user left the attendees in, new ones included.
  public var order: [Attendee.ID]

  /// An edit of the given parts.
  public init(
    added: [Attendee] = [],
    removed: [Attendee.ID] = [],
    renamed: [Attendee] = [],
    order: [Attendee.ID] = []
  ) {
    self.added = added
    self.removed = removed
    self.renamed = renamed
    self.order = order
  }

  /// The edit that turns `before` into `after`, or `nil` when they are the same.
  public init?(from before: IdentifiedArrayOf<Attendee>, to after: IdentifiedArrayOf<Attendee>) {
    guard before != after else { return nil }
    self.init(
      added: after.filter { before[id: $0.id] == nil },
      removed: before.ids.filter { after[id: $0] == nil },
      renamed: after.filter { attendee in
        before[id: attendee.id].map { $0.name != attendee.name } ?? false
      },
      order: Array(after.ids)
    )
  }

  /// This edit without the attendees it removes.
  var withoutRemovals: AttendeesEdit {
    AttendeesEdit(added: added, renamed: renamed, order: order)
  }

  /// Changes `attendees` as the user changed theirs. Attendees the user ordered come first, in
  /// their order; any the edit does not know (added elsewhere) follow, in the order they had.
  public func apply(to attendees: inout IdentifiedArrayOf<Attendee>) {
    attendees.removeAll { removed.contains($0.id) }
    for attendee in renamed {
      attendees[id: attendee.id]?.name = attendee.name
    }
    for attendee in added where attendees[id: attendee.id] == nil {
      attendees.append(attendee)
    }
    let ordered = order.compactMap { attendees[id: $0] }
    let others = attendees.filter { !order.contains($0.id) }
    attendees = IdentifiedArray(uniqueElements: ordered + others)
  }
}

extension Standup {
  /// Adds a past meeting where it belongs among the others, newest first; a meeting of the same
  /// date as others goes before them. A meeting already there is left as it is.
  public mutating func record(_ meeting: Meeting) {
    guard meetings[id: meeting.id] == nil else { return }
    let index = meetings.firstIndex { $0.date <= meeting.date } ?? meetings.endIndex
    meetings.insert(meeting, at: index)
  }
}
