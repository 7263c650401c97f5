import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import PropertyBased
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// A team's life, at random: three members' machines edit every field of two shared standups,
/// record meetings, delete them, answer the question a deletion asks (keep it or let it go),
/// sync now and then and go without syncing for a while. At the quiet point after every run,
/// the sync's rules hold (TeamSync's article states them):
///
/// - every machine holds the server's order applied, whatever its user answered;
/// - no meeting recorded is lost, but with a standup the team let go;
/// - a value of a machine's that another member's change replaced without having seen it is in
///   that machine's told list, with who replaced it.
@Suite(.serialized, .timeLimit(.minutes(8)), .needsPostgreSQL)
struct TeamLifeTests {
  enum Step: Equatable, Sendable {
    case edit(machine: Int, standup: Int, field: Int, value: Int)
    case recordMeeting(machine: Int, standup: Int)
    case delete(machine: Int, standup: Int)
    case answer(machine: Int, keep: Bool)
    case sync(machine: Int)
    case goOffline(machine: Int)
    case comeBack(machine: Int)
  }

  static let steps = Gen.frequency(
    (
      8,
      zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: 0...3), Gen.int(in: 0...3))
        .map { Step.edit(machine: $0, standup: $1, field: $2, value: $3) }
    ),
    (2, zip(Gen.int(in: 0...2), Gen.int(in: 0...1)).map(Step.recordMeeting)),
    (1, zip(Gen.int(in: 0...2), Gen.int(in: 0...1)).map(Step.delete)),
    (2, zip(Gen.int(in: 0...2), Gen.bool).map(Step.answer)),
    (6, Gen.int(in: 0...2).map(Step.sync)),
    (1, Gen.int(in: 0...2).map(Step.goOffline)),
    (1, Gen.int(in: 0...2).map(Step.comeBack))
  )
  .array(of: 1...25)

  static let names = ["alice", "bob", "carol"]

  @Test func aTeamsLifeKeepsTheSyncsRules() async throws {
    let runs = Int(ProcessInfo.processInfo.environment["STANDUPS_TEAM_LIFE_RUNS"] ?? "") ?? 6
    try await TestServer.withTestServer { server in
      for name in Self.names { try server.createRole(name, password: "\(name)-secret") }
      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: TestServer.logger)
      }
      let teams = Mutex(0)
      await propertyCheck(count: runs, input: Self.steps) { steps in
        do {
          let team = teams.withLock { count in
            count += 1
            return "life\(count)"
          }
          try await live(steps, team: team, server)
        } catch {
          Issue.record(error)
        }
      }
    }
  }

  private func live(_ steps: [Step], team: String, _ server: TestServer) async throws {
    _ = try await server.withAdministrator { connection in
      try await TeamSchema.addMembers(
        team: team, roles: Self.names.map(server.role), on: connection, logger: TestServer.logger)
    }
    var machines: [Machine] = []
    for name in Self.names {
      machines.append(
        try await Machine.joined(server, as: name, password: "\(name)-secret", team: team))
    }
    let standups = [Standup.mock, Standup.engineeringMock]
    try await machines[0].database.apply(.added(standups))
    try await machines[0].database.share(standups.map(\.id))
    for machine in machines { try await machine.sync() }

    var offline: Set<Int> = []
    var transcripts: [String: Standup.ID] = [:]
    for (index, step) in steps.enumerated() {
      switch step {
      case .edit(let machine, let standup, let field, let value):
        let id = standups[standup].id
        guard let now = try await machines[machine].standups()[id: id] else { continue }
        try await machines[machine].database.apply(
          .edited(id, StandupEdit(from: now, to: now.with(field: field, value: value, step: index)))
        )
      case .recordMeeting(let machine, let standup):
        guard let now = try await machines[machine].standups()[id: standups[standup].id]
        else { continue }
        let transcript = "\(team) step \(index)"
        transcripts[transcript] = now.id
        try await machines[machine].database.apply(
          .meetingRecorded(
            // NB: Each at a time of its own, as meetings are: the list is newest first.
            Meeting(
              id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(index)),
              transcript: transcript),
            standup: now))
      case .delete(let machine, let standup):
        let id = standups[standup].id
        guard try await machines[machine].standups()[id: id] != nil else { continue }
        try await machines[machine].database.apply(.deleted(id))
      case .answer(let machine, let keep):
        for question in try await machines[machine].database.teamDeletionQuestions() {
          try await machines[machine].database.answerTeamDeletion(
            of: question.standup.id, keep: keep)
        }
      case .sync(let machine):
        guard !offline.contains(machine) else { continue }
        try await machines[machine].sync()
      case .goOffline(let machine): offline.insert(machine)
      case .comeBack(let machine): offline.remove(machine)
      }
    }

    // NB: The quiet point: every question answered, every machine synced until nothing waits,
    // then once more, so that each has pulled the last change.
    for _ in 1...5 {
      var moved = false
      for machine in machines {
        for question in try await machine.database.teamDeletionQuestions() {
          try await machine.database.answerTeamDeletion(of: question.standup.id, keep: true)
        }
        moved = try await machine.sync().pushed > 0 || moved
        moved = try await !machine.database.teamDeletionQuestions().isEmpty || moved
      }
      if !moved { break }
    }
    // NB: By ID: where a standup sits in a machine's list is that machine's (one shared there
    // goes to the end of the others' lists).
    let ends = try await machines.asyncMap { Set(try await $0.standups()) }
    let summary = ends.map { $0.map { "\($0.title): \($0.meetings.map(\.transcript))" } }
    for end in ends.dropFirst() where end != ends[0] {
      Issue.record("The machines differ: \(summary), after \(steps)")
      break
    }
    let history = try history(of: team, server)
    #expect(
      ends[0] == Set(history.applied),
      "the server's order applied: \(history.applied.map(\.title)), not \(summary[0])")
    for (transcript, id) in transcripts where !history.deleted.contains(id) {
      #expect(
        ends[0].first { $0.id == id }?.meetings.contains { $0.transcript == transcript } == true,
        "\(transcript) was lost: \(steps)")
    }
    for (machine, name) in zip(machines, Self.names) {
      let told = try await machine.database.valuesReplacedByTheTeam()
      for lost in history.valuesLost(by: server.role(name)) {
        #expect(
          told.contains { $0.standupID == lost.standup && $0.value == lost.value },
          "\(name) was not told of \(lost): \(steps)")
      }
    }
  }

  /// The team's history as the server holds it, in its order.
  private func history(of team: String, _ server: TestServer) throws -> History {
    let rows = try server.administer(
      """
      SELECT made_by || E'\\t' || change::text FROM standups_team.changes
      WHERE team = '\(team)' ORDER BY sequence
      """)
    var history = History()
    for row in rows.split(separator: "\n") {
      let parts = row.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let change = try JSONDecoder().decode(StandupsChange.self, from: Data(parts[1].utf8))
      history.changes.append((String(parts[0]), change))
    }
    return history
  }
}

/// The team's changes in the server's order, and what follows from them.
struct History {
  var changes: [(madeBy: String, change: StandupsChange)] = []

  /// The standups the changes leave, applied in order to none.
  var applied: IdentifiedArrayOf<Standup> {
    var standups: IdentifiedArrayOf<Standup> = []
    for (_, change) in changes { change.apply(to: &standups) }
    return standups
  }

  /// The standups some change deleted.
  var deleted: Set<Standup.ID> {
    Set(changes.compactMap { if case .deleted(let id) = $0.change { id } else { nil } })
  }

  /// The values of `role`'s that another member's change replaced without having seen them, on
  /// standups never deleted: `role`'s last value of a field, when the next change of another's
  /// to that field saw another value and set another, and the field did not end with `role`'s.
  func valuesLost(by role: String) -> [(standup: Standup.ID, value: StandupValue)] {
    let edits = changes.enumerated().compactMap { index, entry -> Edit? in
      guard case .edited(let id, let edit) = entry.change, !deleted.contains(id) else { return nil }
      return Edit(index: index, madeBy: entry.madeBy, standup: id, values: edit.fieldValues)
    }
    var lost: [(standup: Standup.ID, value: StandupValue)] = []
    for edit in edits where edit.madeBy == role {
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
  /// The standup with one field set from a small set of values: title, length, theme, or the
  /// first attendee's name.
  fileprivate func with(field: Int, value: Int, step: Int) -> Standup {
    var standup = self
    switch field {
    case 0: standup.title = "Title \(value)"
    case 1: standup.duration = .seconds(60 * (5 + value))
    case 2: standup.theme = [Theme.bubblegum, .buttercup, .indigo, .lavender][value]
    default:
      if let first = standup.attendees.first {
        standup.attendees[id: first.id]?.name = "Name \(value)"
      }
    }
    return standup
  }

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

extension Array {
  fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var mapped: [T] = []
    for element in self { mapped.append(try await transform(element)) }
    return mapped
  }
}
