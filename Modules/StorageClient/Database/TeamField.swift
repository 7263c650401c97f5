import Models

/// A field of a shared standup, as `teamFieldOwner` names it: what this machine marks as set
/// here last when its edit reaches the team, and what a value another member's change replaced
/// is matched against, to tell it (`TeamLedger.tellReplaced`).
///
/// An attendee's name and presence are one field: a rename and a removal of one attendee are
/// two values of it, so a removal ordered after a rename unseen is told, and so is the reverse.
///
/// ```swift
/// TeamField.set(by: StandupEdit(title: "Design")).map(\.column)  // ["title"]
/// TeamField(of: .theme(.orange)).column  // "theme"
/// ```
enum TeamField: Hashable {
  case title
  case duration
  case theme
  case attendee(Attendee.ID)
  case attendeeOrder

  /// The fields `edit` sets.
  static func set(by edit: StandupEdit) -> [TeamField] {
    var fields: [TeamField] = []
    if edit.title != nil { fields.append(.title) }
    if edit.duration != nil { fields.append(.duration) }
    if edit.theme != nil { fields.append(.theme) }
    for id in (edit.attendees?.renamed.map(\.id) ?? []) + (edit.attendees?.removed ?? []) {
      fields.append(.attendee(id))
    }
    if edit.seen.attendeeOrder != nil { fields.append(.attendeeOrder) }
    return fields
  }

  /// The field `value` was a value of.
  init(of value: StandupValue) {
    switch value {
    case .title: self = .title
    case .duration: self = .duration
    case .theme: self = .theme
    case .attendeeName(let attendee), .attendeeRemoved(let attendee): self = .attendee(attendee.id)
    case .attendeeOrder: self = .attendeeOrder
    }
  }

  /// The `field` column's text.
  var column: String {
    switch self {
    case .title: "title"
    case .duration: "duration"
    case .theme: "theme"
    case .attendee(let id): "attendee:\(id.rawValue.uuidString)"
    case .attendeeOrder: "attendeeOrder"
    }
  }
}
