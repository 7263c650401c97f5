import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer

/// A team's changes in the server's order, and what follows from them: the oracle the model test
/// of a team's life checks the machines against.
///
/// A prune folds changes into the compacted state and deletes them, so the test reads the history
/// before each prune and again at the end; ``read(_:of:)`` adds what it has not seen yet, by
/// number.
struct History {
  struct Entry {
    var sequence: Int64
    var madeBy: String
    var change: StandupsChange
  }

  private(set) var changes: [Entry] = []

  /// Adds the changes of `team`'s that the server holds now and this history has not seen.
  mutating func read(_ server: TestServer, of team: String) async throws {
    let rows = try await server.administer(
      """
      SELECT sequence || E'\\t' || made_by || E'\\t' || change::text
      FROM standups_team.changes WHERE team = '\(team)' ORDER BY sequence
      """)
    let seen = Set(changes.map(\.sequence))
    for row in rows.split(separator: "\n") {
      let parts = row.split(separator: "\t", maxSplits: 2)
      guard parts.count == 3, let sequence = Int64(parts[0]), !seen.contains(sequence) else {
        continue
      }
      let change = try JSONDecoder().decode(StandupsChange.self, from: Data(parts[2].utf8))
      changes.append(Entry(sequence: sequence, madeBy: String(parts[1]), change: change))
    }
    changes.sort { $0.sequence < $1.sequence }
  }

  /// The highest number the history holds, or 0.
  var last: Int64 { changes.last?.sequence ?? 0 }

  /// The standups the changes leave, applied in order to none.
  var applied: IdentifiedArrayOf<Standup> {
    var standups: IdentifiedArrayOf<Standup> = []
    for entry in changes { entry.change.apply(to: &standups) }
    return standups
  }

  /// The standups some change deleted.
  var deleted: Set<Standup.ID> {
    Set(changes.compactMap { if case .deleted(let id) = $0.change { id } else { nil } })
  }

  /// The values of `role`'s, set by changes numbered after `sequence`, that another member's
  /// change replaced without having seen them: `role`'s last value of a field, when the next
  /// change of another's to that field saw another value and set another, and the field did not
  /// end with `role`'s. The fields are every field the app edits: title, length, theme, each
  /// attendee (named, or removed) and the attendees' order.
  ///
  /// A standup deleted and brought back counts from the change that brought it back (added, or a
  /// meeting): a value the deletion took is the deletion's question to answer, and an edit
  /// ordered while it was deleted applies to nothing. Once it is back, only the values its
  /// members chose count as theirs: the copy each "Keep it" sends whole sets every field
  /// without having seen any, and the last copy ordered is the standup the team keeps.
  func valuesLost(by role: String, after sequence: Int64 = 0) -> [FieldValue] {
    let edits = changes.enumerated().compactMap { index, entry -> Edit? in
      guard case .edited(let id, let edit) = entry.change,
        let start = lifeStart(of: id), index > start
      else { return nil }
      return Edit(
        index: index, sequence: entry.sequence, madeBy: entry.madeBy, standup: id,
        values: edit.fieldValues, isBroughtBack: start >= 0)
    }
    let end = applied
    var lost: [FieldValue] = []
    for edit in edits where edit.madeBy == role && edit.sequence > sequence {
      for (value, seen) in edit.values where !(edit.isBroughtBack && seen == nil) {
        let later = edits.filter { $0.index > edit.index && $0.standup == edit.standup }
          .filter { $0.sets(value.field) }
        guard !later.contains(where: { $0.madeBy == role }),
          let next = later.first,
          let (replacement, seen) = next.values.first(where: { $0.0.field == value.field }),
          !(seen.map { value.isSame(as: $0) } ?? false), !value.isSame(as: replacement),
          !(end[id: edit.standup].map { value.isSame(as: FieldValue(value.field, of: $0)) }
            ?? false)
        else { continue }
        lost.append(FieldValue(standup: edit.standup, field: value.field, value: value.value))
      }
    }
    return lost
  }

  /// Where the standup's present life starts: -1 when no change deleted it, the change that
  /// brought it back after its last deletion, `nil` when none did.
  private func lifeStart(of id: Standup.ID) -> Int? {
    guard
      let deletion = changes.lastIndex(where: {
        if case .deleted(id) = $0.change { true } else { false }
      })
    else { return -1 }
    return changes.indices.first { index in
      guard index > deletion else { return false }
      switch changes[index].change {
      case .added(let standups): return standups.contains { $0.id == id }
      case .meetingRecorded(_, let standup): return standup.id == id
      case .edited, .deleted: return false
      }
    }
  }

  /// An edit in the history: where, by whom, of which standup, and the values it sets, each
  /// with the value its author saw.
  struct Edit {
    var index: Int
    var sequence: Int64
    var madeBy: String
    var standup: Standup.ID
    var values: [(FieldValue, FieldValue?)]
    /// Whether the standup was deleted and brought back before this edit.
    var isBroughtBack: Bool

    func sets(_ field: FieldValue.Field) -> Bool {
      values.contains { $0.0.field == field }
    }
  }
}

/// One value of one field of a standup, as the oracle compares them: an attendee's field by the
/// attendee's ID, holding a name or their removal; the order by the attendees' IDs.
struct FieldValue: Equatable, CustomStringConvertible {
  enum Field: Hashable {
    case title, length, theme
    case attendee(Attendee.ID)
    case order
  }

  enum Value: Equatable {
    case text(String)
    case removed
    case order([Attendee.ID])
  }

  var standup: Standup.ID?
  var field: Field
  var value: Value

  init(standup: Standup.ID? = nil, field: Field, value: Value) {
    self.standup = standup
    self.field = field
    self.value = value
  }

  /// `field`'s value in `standup`.
  init(_ field: Field, of standup: Standup) {
    self.field = field
    switch field {
    case .title: value = .text(standup.title)
    case .length: value = .text("\(standup.duration)")
    case .theme: value = .text(standup.theme.name)
    case .attendee(let id): value = standup.attendees[id: id].map { .text($0.name) } ?? .removed
    case .order: value = .order(Array(standup.attendees.ids))
    }
  }

  /// A value a machine was told of, as the oracle names it.
  init(_ told: StandupValue, standup: Standup.ID) {
    self.standup = standup
    switch told {
    case .title(let title): (field, value) = (.title, .text(title))
    case .duration(let duration): (field, value) = (.length, .text("\(duration)"))
    case .theme(let theme): (field, value) = (.theme, .text(theme.name))
    case .attendeeName(let attendee):
      (field, value) = (.attendee(attendee.id), .text(attendee.name))
    case .attendeeRemoved(let attendee): (field, value) = (.attendee(attendee.id), .removed)
    case .attendeeOrder(let order): (field, value) = (.order, .order(order))
    }
  }

  /// Whether `other` is this value. Two orders are the same when they put the attendees both
  /// hold in the same order: an attendee added or removed elsewhere is no other order.
  func isSame(as other: FieldValue) -> Bool {
    guard field == other.field else { return false }
    guard case .order(let mine) = value, case .order(let theirs) = other.value else {
      return value == other.value
    }
    return mine.filter(theirs.contains) == theirs.filter(mine.contains)
  }

  var description: String { "\(field) = \(value)" }
}

extension StandupEdit {
  /// Every value the edit sets, each with the value its author saw (`nil` when it did not say).
  var fieldValues: [(FieldValue, FieldValue?)] {
    var values: [(FieldValue, FieldValue?)] = []
    if let title {
      values.append(
        (
          FieldValue(field: .title, value: .text(title)),
          seen.title.map { FieldValue(field: .title, value: .text($0)) }
        ))
    }
    if let duration {
      values.append(
        (
          FieldValue(field: .length, value: .text("\(duration)")),
          seen.duration.map { FieldValue(field: .length, value: .text("\($0)")) }
        ))
    }
    if let theme {
      values.append(
        (
          FieldValue(field: .theme, value: .text(theme.name)),
          seen.theme.map { FieldValue(field: .theme, value: .text($0.name)) }
        ))
    }
    for attendee in attendees?.renamed ?? [] {
      values.append(
        (
          FieldValue(field: .attendee(attendee.id), value: .text(attendee.name)),
          seen.attendeeNames[attendee.id].map {
            FieldValue(field: .attendee(attendee.id), value: .text($0))
          }
        ))
    }
    for id in attendees?.removed ?? [] {
      values.append(
        (
          FieldValue(field: .attendee(id), value: .removed),
          seen.attendeeNames[id].map { FieldValue(field: .attendee(id), value: .text($0)) }
        ))
    }
    if let order = attendees?.order, let seenOrder = seen.attendeeOrder {
      values.append(
        (
          FieldValue(field: .order, value: .order(order)),
          FieldValue(field: .order, value: .order(seenOrder))
        ))
    }
    return values
  }
}
