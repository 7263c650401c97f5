public import Foundation
public import Tagged

/// A value a user saved that another save of the same field replaced: two forms open on one
/// standup, in two instances of the app, each saving the title. The last save wins; the value it
/// replaced is kept here, named, so that whoever saved it is told and can put it back.
///
/// ```swift
/// let replaced = ReplacedValue(
///   id: ReplacedValue.ID(UUID()), standupID: standup.id, standupTitle: "Design",
///   value: .title("Design review"), replacement: .title("Design sync"), replacedAt: now)
/// try await storage.apply(.edited(replaced.standupID, replaced.restoringEdit))
/// ```
public struct ReplacedValue: Equatable, Identifiable, Sendable {
  /// The identity of this record, so that any instance can put it away.
  public let id: Tagged<Self, UUID>
  /// The standup whose field it was.
  public var standupID: Standup.ID
  /// The standup's title (``Standup/displayTitle``) when the value was replaced.
  public var standupTitle: String
  /// The value that was replaced.
  public var value: StandupValue
  /// The value that replaced it.
  public var replacement: StandupValue
  /// When it was replaced.
  public var replacedAt: Date
  /// The team member whose change replaced it, when it came from the team: the server ordered
  /// that change after this machine's. `nil` when another instance of the app replaced it.
  public var member: String?

  /// Records a replaced value.
  public init(
    id: Tagged<Self, UUID>,
    standupID: Standup.ID,
    standupTitle: String,
    value: StandupValue,
    replacement: StandupValue,
    replacedAt: Date,
    member: String? = nil
  ) {
    self.id = id
    self.standupID = standupID
    self.standupTitle = standupTitle
    self.value = value
    self.replacement = replacement
    self.replacedAt = replacedAt
    self.member = member
  }

  /// The edit that puts the value back, made having seen its replacement: where the field has
  /// changed again since, putting it back replaces that value too, and that is told, as any
  /// edit's is. Seeing the replacement is also what marks the field as set again by this user
  /// (an order put back is as much the user's order as one set in the form).
  ///
  /// ```swift
  /// replaced.restoringEdit  // StandupEdit(title: "Design review"), having seen "Design sync"
  /// ```
  public var restoringEdit: StandupEdit {
    var edit = value.restoringEdit
    switch replacement {
    case .title(let title): edit.seen.title = title
    case .duration(let duration): edit.seen.duration = duration
    case .theme(let theme): edit.seen.theme = theme
    case .attendeeName(let attendee): edit.seen.attendeeNames[attendee.id] = attendee.name
    // NB: A name put back over a removal renames an attendee that was gone: no name was seen.
    case .attendeeRemoved: break
    case .attendeeOrder(let order): edit.seen.attendeeOrder = order
    }
    return edit
  }

  /// What happened, in a sentence for people.
  public var sentence: String {
    let what =
      switch value {
      case .title: "Your title \(value.description)"
      case .attendeeName: "Your name \(value.description) in “\(standupTitle)”"
      default: "Your \(value.field) \(value.description) of “\(standupTitle)”"
      }
    if case .attendeeRemoved = replacement {
      let by = member.map { "by \($0)'s change, which the team's server ordered after yours" }
      return "\(what) was removed, with the attendee, " + (by ?? "by a save elsewhere") + "."
    }
    if case .attendeeRemoved = value, case .attendeeName(let attendee) = replacement {
      let by = member.map { "\($0)'s change, which the team's server ordered after yours," }
      return "An attendee you removed from “\(standupTitle)” is back: "
        + (by ?? "a save elsewhere") + " brought them back as “\(attendee.name)”."
    }
    guard let member else {
      return "\(what) was replaced by \(replacement.description), saved elsewhere from a form "
        + "opened before yours was saved."
    }
    return "\(what) was replaced by \(replacement.description), from \(member)'s change, which "
      + "the team's server ordered after yours."
  }
}
