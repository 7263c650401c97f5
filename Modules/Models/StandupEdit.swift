public import IdentifiedCollections
public import Tagged

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
///
/// An edit made from a standup it saw (``init(from:to:)``, what a form saves) remembers what the
/// fields it changes held then (``seen``), so that applied to a standup whose same field changed
/// elsewhere meanwhile, it can say whose value it replaces (``valuesReplaced(in:)``): the last
/// save wins, and the other is told, never silently overwritten.
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
  /// What the fields this edit changes held where it was made; empty when that is not known.
  public var seen: Seen

  /// What the fields an edit changes held where it was made (the form opened on them): only the
  /// fields it changes.
  public struct Seen: Equatable, Sendable {
    /// The title, when the edit changes it.
    public var title: String?
    /// The length, when the edit changes it.
    public var duration: Duration?
    /// The theme, when the edit changes it.
    public var theme: Theme?
    /// The names of the attendees the edit renames or removes.
    public var attendeeNames: [Attendee.ID: String]
    /// The order of the attendees, when the edit changes it.
    public var attendeeOrder: [Attendee.ID]?

    /// Values seen.
    public init(
      title: String? = nil,
      duration: Duration? = nil,
      theme: Theme? = nil,
      attendeeNames: [Attendee.ID: String] = [:],
      attendeeOrder: [Attendee.ID]? = nil
    ) {
      self.title = title
      self.duration = duration
      self.theme = theme
      self.attendeeNames = attendeeNames
      self.attendeeOrder = attendeeOrder
    }
  }

  /// An edit that changes the given parts.
  public init(
    title: String? = nil,
    duration: Duration? = nil,
    theme: Theme? = nil,
    attendees: AttendeesEdit? = nil,
    meetingsAdded: [Meeting] = [],
    meetingsRemoved: [Meeting.ID] = [],
    seen: Seen = Seen()
  ) {
    self.title = title
    self.duration = duration
    self.theme = theme
    self.attendees = attendees
    self.meetingsAdded = meetingsAdded
    self.meetingsRemoved = meetingsRemoved
    self.seen = seen
  }

  /// The edit that turns `before` into `after`: each field that differs, the attendees added,
  /// removed, renamed or moved, and the meetings added or removed.
  public init(from before: Standup, to after: Standup) {
    let attendees = AttendeesEdit(from: before.attendees, to: after.attendees)
    var seen = Seen()
    if after.title != before.title { seen.title = before.title }
    if after.duration != before.duration { seen.duration = before.duration }
    if after.theme != before.theme { seen.theme = before.theme }
    // NB: The names of the attendees it removes too: a removal that did not see a name another
    // machine gave one takes that name away, and its owner is told.
    for id in (attendees?.renamed.map(\.id) ?? []) + (attendees?.removed ?? []) {
      seen.attendeeNames[id] = before.attendees[id: id]?.name
    }
    if let attendees, !attendees.order.isEmpty {
      seen.attendeeOrder = Array(before.attendees.ids)
    }
    self.init(
      title: after.title == before.title ? nil : after.title,
      duration: after.duration == before.duration ? nil : after.duration,
      theme: after.theme == before.theme ? nil : after.theme,
      attendees: attendees,
      meetingsAdded: after.meetings.filter { before.meetings[id: $0.id] == nil },
      meetingsRemoved: before.meetings.ids.filter { after.meetings[id: $0] == nil },
      seen: seen
    )
  }

  /// The edit that gives any copy of `standup` its values, removing nothing: every field, every
  /// attendee (added where missing, renamed where named otherwise, in its order) and every
  /// meeting. What a machine sends again when the team's server has forgotten changes it had:
  /// copies that have the standup take its values, and nothing added elsewhere is lost.
  ///
  /// ```swift
  /// let edit = StandupEdit(restating: standup)
  /// // standup's fields, attendees and meetings, and olderCopy's others:
  /// edit.applied(to: olderCopy)
  /// ```
  public init(restating standup: Standup) {
    self.init(
      title: standup.title,
      duration: standup.duration,
      theme: standup.theme,
      attendees: AttendeesEdit(
        added: Array(standup.attendees), renamed: Array(standup.attendees),
        order: Array(standup.attendees.ids)),
      meetingsAdded: Array(standup.meetings)
    )
  }

  /// Whether the edit changes nothing.
  public var isEmpty: Bool {
    var changes = self
    changes.seen = Seen()
    return changes == StandupEdit()
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

  /// The values of `now` that applying this edit replaces although they changed since the edit
  /// saw them: another save of the same field, made meanwhile elsewhere. A field the edit sets to
  /// the value `now` already holds replaces nothing. Empty when the edit does not know what it
  /// saw.
  ///
  /// ```swift
  /// // A form opened on "Design"; another instance saved "Design review"; this form saves "Sync".
  /// edit.valuesReplaced(in: now)
  /// // [Replacement(replaced: .title("Design review"), by: .title("Sync"))]
  /// ```
  public func valuesReplaced(in now: Standup) -> [Replacement] {
    var replaced: [Replacement] = []
    if let title, let seenTitle = seen.title, now.title != seenTitle, now.title != title {
      replaced.append(Replacement(replaced: .title(now.title), by: .title(title)))
    }
    if let duration, let seenDuration = seen.duration, now.duration != seenDuration,
      now.duration != duration
    {
      replaced.append(Replacement(replaced: .duration(now.duration), by: .duration(duration)))
    }
    if let theme, let seenTheme = seen.theme, now.theme != seenTheme, now.theme != theme {
      replaced.append(Replacement(replaced: .theme(now.theme), by: .theme(theme)))
    }
    for attendee in attendees?.renamed ?? [] {
      guard let seenName = seen.attendeeNames[attendee.id],
        let current = now.attendees[id: attendee.id], current.name != seenName,
        current.name != attendee.name
      else { continue }
      replaced.append(Replacement(replaced: .attendeeName(current), by: .attendeeName(attendee)))
    }
    if let order = attendees?.order, let seenOrder = seen.attendeeOrder {
      let currentOrder = Array(now.attendees.ids)
      let known = Set(seenOrder)
      // NB: Attendees added elsewhere are kept, after the user's order; only a different order of
      // the attendees the user saw is a replaced value.
      let current = currentOrder.filter { known.contains($0) }
      if current != seenOrder.filter(now.attendees.ids.contains),
        current != order.filter(now.attendees.ids.contains)
      {
        replaced.append(
          Replacement(replaced: .attendeeOrder(currentOrder), by: .attendeeOrder(order)))
      }
    }
    return replaced
  }

  /// The attendees this edit takes from `now`, beside the names ``valuesReplaced(in:)`` finds:
  /// an attendee named in `now` that the edit removes without having seen that name, and an
  /// attendee gone from `now` that the edit renames, which brings them back: what another
  /// member's change replaces of a machine's standup. Which of them that machine set is the
  /// caller's to check.
  ///
  /// ```swift
  /// // Another machine removed "Blob", whom it knew as "Blob"; this machine renamed them "Bob".
  /// edit.attendeesReplaced(in: here)
  /// // [Replacement(replaced: .attendeeName(bob), by: .attendeeRemoved(bob))]
  /// ```
  public func attendeesReplaced(in now: Standup) -> [Replacement] {
    var replaced: [Replacement] = []
    for id in attendees?.removed ?? [] {
      guard let named = now.attendees[id: id], seen.attendeeNames[id] != named.name
      else { continue }
      replaced.append(Replacement(replaced: .attendeeName(named), by: .attendeeRemoved(named)))
    }
    for attendee in attendees?.renamed ?? [] where now.attendees[id: attendee.id] == nil {
      replaced.append(
        Replacement(replaced: .attendeeRemoved(attendee), by: .attendeeName(attendee)))
    }
    return replaced
  }

  /// A value of a standup that an edit replaces, and the value it puts in its place.
  public struct Replacement: Equatable, Sendable {
    /// The value the standup held.
    public var replaced: StandupValue
    /// The edit's value for the same field.
    public var replacement: StandupValue

    /// Describes a replacement.
    public init(replaced: StandupValue, by replacement: StandupValue) {
      self.replaced = replaced
      self.replacement = replacement
    }
  }

  /// The attendees this edit renames that are gone from `now`: removed elsewhere while the form
  /// was open. Applying the edit keeps them, with their new names, until the user lets them go.
  public func attendeesRenamedButGone(in now: Standup) -> [Attendee] {
    (attendees?.renamed ?? []).filter { now.attendees[id: $0.id] == nil }
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

/// What changed among a standup's attendees: who was added, removed or renamed, and, when the
/// user added or moved someone, the order the user left them in.
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
  /// The order the user left the attendees in, new ones included; empty when the user moved no
  /// one and added attendees only at the end, so that applied where the order changed meanwhile,
  /// that order stays.
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
    // NB: An edit that moves no one and adds only at the end carries no order: a rename or an
    // add applied where another member reordered the attendees meanwhile must not put them back
    // in this user's order unseen.
    let added = after.filter { before[id: $0.id] == nil }
    let keepsTheOrder =
      Array(after.ids) == before.ids.filter { after[id: $0] != nil } + added.map(\.id)
    self.init(
      added: Array(added),
      removed: before.ids.filter { after[id: $0] == nil },
      renamed: after.filter { attendee in
        before[id: attendee.id].map { $0.name != attendee.name } ?? false
      },
      order: keepsTheOrder ? [] : Array(after.ids)
    )
  }

  /// This edit without the attendees it removes.
  var withoutRemovals: AttendeesEdit {
    AttendeesEdit(added: added, renamed: renamed, order: order)
  }

  /// Changes `attendees` as the user changed theirs. Attendees the user ordered come first, in
  /// their order; any the edit does not know (added elsewhere) follow, in the order they had. An
  /// attendee the user renamed is kept, with the new name, even when it was removed elsewhere
  /// meanwhile: what the user typed is never dropped without a word
  /// (``StandupEdit/attendeesRenamedButGone(in:)`` says which).
  ///
  /// An attendee added goes last, even when it is there already: an edit applied again after
  /// changes ordered before it (a team's waiting change, after a pull) puts its attendees where
  /// applying it after those changes puts them. Applying an edit twice is applying it once.
  public func apply(to attendees: inout IdentifiedArrayOf<Attendee>) {
    attendees.removeAll { removed.contains($0.id) }
    for attendee in renamed {
      attendees[id: attendee.id] = attendee
    }
    for attendee in added {
      let current = attendees.remove(id: attendee.id)
      attendees.append(current ?? attendee)
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
