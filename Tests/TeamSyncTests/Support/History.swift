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
  mutating func read(_ server: TestServer, of team: String) throws {
    let rows = try server.administer(
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
  /// change replaced without having seen them, on standups never deleted: `role`'s last value of
  /// a field, when the next change of another's to that field saw another value and set another,
  /// and the field did not end with `role`'s.
  func valuesLost(
    by role: String, after sequence: Int64 = 0
  ) -> [(standup: Standup.ID, value: StandupValue)] {
    let edits = changes.enumerated().compactMap { index, entry -> Edit? in
      guard case .edited(let id, let edit) = entry.change, !deleted.contains(id) else { return nil }
      return Edit(
        index: index, sequence: entry.sequence, madeBy: entry.madeBy, standup: id,
        values: edit.fieldValues)
    }
    var lost: [(standup: Standup.ID, value: StandupValue)] = []
    for edit in edits where edit.madeBy == role && edit.sequence > sequence {
      for (value, _) in edit.values {
        let later = edits.filter { $0.index > edit.index && $0.standup == edit.standup }
          .filter { $0.sets(value.field) }
        guard !later.contains(where: { $0.madeBy == role }),
          let next = later.first,
          let (replacement, seen) = next.values.first(where: { $0.0.field == value.field }),
          seen != value, replacement != value,
          applied[id: edit.standup]?.value(of: value.field) != value
        else { continue }
        lost.append((edit.standup, value))
      }
    }
    return lost
  }

  /// An edit in the history: where, by whom, of which standup, and the values it sets.
  struct Edit {
    var index: Int
    var sequence: Int64
    var madeBy: String
    var standup: Standup.ID
    var values: [(StandupValue, StandupValue?)]

    func sets(_ field: String) -> Bool {
      values.contains { $0.0.field == field }
    }
  }
}

extension StandupEdit {
  /// The title, length and theme the edit sets, each with the value its author saw.
  var fieldValues: [(StandupValue, StandupValue?)] {
    var values: [(StandupValue, StandupValue?)] = []
    if let title { values.append((.title(title), seen.title.map { .title($0) })) }
    if let duration { values.append((.duration(duration), seen.duration.map { .duration($0) })) }
    if let theme { values.append((.theme(theme), seen.theme.map { .theme($0) })) }
    return values
  }
}

extension Standup {
  /// The value of the title, length or theme `field` names ("title", "length", "theme").
  fileprivate func value(of field: String) -> StandupValue? {
    switch field {
    case "title": .title(title)
    case "length": .duration(duration)
    case "theme": .theme(theme)
    default: nil
    }
  }
}
