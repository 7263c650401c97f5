/// The value of one field of a standup, as an edit changes it on its own: what a merge compares
/// field by field, and what a value replaced by another's save names.
///
/// ```swift
/// let value = StandupValue.title("Design review")
/// value.restoringEdit  // StandupEdit(title: "Design review")
/// ```
public enum StandupValue: Equatable, Hashable, Sendable {
  /// The title.
  case title(String)
  /// The length of the meeting.
  case duration(Duration)
  /// The theme.
  case theme(Theme)
  /// One attendee's name.
  case attendeeName(Attendee)
  /// One attendee's absence: the attendee, as last named, was removed.
  case attendeeRemoved(Attendee)
  /// The order of the attendees.
  case attendeeOrder([Attendee.ID])

  /// The field, in words: "title", "length", "theme", "Blob's name", "attendee order".
  public var field: String {
    switch self {
    case .title: "title"
    case .duration: "length"
    case .theme: "theme"
    case .attendeeName: "an attendee's name"
    case .attendeeRemoved: "an attendee"
    case .attendeeOrder: "attendee order"
    }
  }

  /// The value, in words, for a sentence: the title or name in quotes, the length in minutes.
  public var description: String {
    switch self {
    case .title(let title): "“\(title)”"
    case .duration(let duration): "\(duration.components.seconds / 60) min"
    case .theme(let theme): theme.name
    case .attendeeName(let attendee): "“\(attendee.name)”"
    case .attendeeRemoved(let attendee): "the removal of “\(attendee.name)”"
    case .attendeeOrder: "the order it had"
    }
  }

  /// The edit that gives the field this value again.
  public var restoringEdit: StandupEdit {
    switch self {
    case .title(let title): StandupEdit(title: title)
    case .duration(let duration): StandupEdit(duration: duration)
    case .theme(let theme): StandupEdit(theme: theme)
    case .attendeeName(let attendee): StandupEdit(attendees: AttendeesEdit(renamed: [attendee]))
    case .attendeeRemoved(let attendee):
      StandupEdit(attendees: AttendeesEdit(removed: [attendee.id]))
    case .attendeeOrder(let order): StandupEdit(attendees: AttendeesEdit(order: order))
    }
  }
}
