import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// One run of ``TeamLifeTests``: the machines, what the test knows of each, and the history it
/// reads from the server.
struct Life {
  let steps: [TeamLifeTests.Step]
  let team: String
  let server: TestServer
  let standups = [Standup.mock, Standup.engineeringMock]
  var machines: [Machine] = []
  var outsider: Machine?
  /// Alice's machine in dave's team, beside hers: what it shares there must never reach the
  /// team, nor the team's standups that team.
  var alsoElsewhere: Machine?
  /// The meetings recorded in dave's team.
  var elsewhereMeetings: Set<String> = []
  var history = History()
  var offline: Set<Int> = []
  /// The machines whose role the owner removed and has not let back in, with the step.
  var removed: [Int: Int] = [:]
  /// For each machine in the team, the last number of the team's when it last joined: only
  /// values it set after that are its machine's to be told of.
  var joinedAfter: [Int: Int64] = [:]
  var meetings: [String: Recorded] = [:]

  /// A meeting the test recorded: on which standup, on which machine, at which step, whether
  /// that machine was in the team then, and whether its user deleted the standup later on that
  /// machine. That deletes the meeting there; when the deletion never reached the team (the
  /// machine left, or was removed, before it could push), the team's standup never had the
  /// meeting either, and nothing of the sync's lost it.
  struct Recorded {
    var standup: Standup.ID
    var machine: Int
    var step: Int
    var inTheTeam: Bool
    var deletedByItsUser = false
  }

  init(steps: [TeamLifeTests.Step], team: String, server: TestServer) {
    self.steps = steps
    self.team = team
    self.server = server
  }

  mutating func live() async throws {
    _ = try await server.withAdministrator { [team, server] connection in
      try await TeamSchema.addMembers(
        team: team, roles: TeamLifeTests.names.map(server.role), on: connection,
        logger: TestServer.logger)
      try await TeamSchema.addMembers(
        team: "\(team)-elsewhere",
        roles: [server.role(TeamLifeTests.outsider), server.role(TeamLifeTests.names[0])],
        on: connection, logger: TestServer.logger)
    }
    for name in TeamLifeTests.names {
      machines.append(
        try await Machine.joined(server, as: name, password: "\(name)-secret", team: team))
      joinedAfter[machines.count - 1] = 0
    }
    let outsider = try await Machine.joined(
      server, as: TeamLifeTests.outsider, password: "\(TeamLifeTests.outsider)-secret",
      team: "\(team)-elsewhere")
    try await outsider.database.apply(.added([.productMock]))
    try await outsider.database.share([Standup.productMock.id])
    self.outsider = outsider
    try await outsider.sync()
    alsoElsewhere = try await machines[0].also("\(team)-elsewhere", as: "alice", on: server)
    try await alsoElsewhere?.sync()
    try await machines[0].database.apply(.added(standups))
    let alices = try #require(try await machines[0].membership())
    try await machines[0].database.share(standups.map(\.id), with: alices.id)
    for machine in machines.indices { try await sync(machine) }

    for (index, step) in steps.enumerated() {
      try await take(step, at: index)
    }
    try await checkNothingLeaves()
    try await settle()
    try await checkTheRules()
    try await checkDavesTeamConverges()
  }

  private mutating func take(_ step: TeamLifeTests.Step, at index: Int) async throws {
    switch step {
    case .edit(let machine, let standup, let field, let value):
      let id = standups[standup].id
      guard let now = try await machines[machine].standups()[id: id] else { return }
      try await machines[machine].database.apply(
        .edited(id, StandupEdit(from: now, to: now.with(field: field, value: value))))
    case .putBack(let machine):
      // NB: As the alert's "Put back" does: the value put back, then the told value put away.
      let held = try await machines[machine].standups()
      for told in try await machines[machine].database.valuesReplacedByTheTeam()
      where held[id: told.standupID] != nil {
        try await machines[machine].database.apply(.edited(told.standupID, told.restoringEdit))
        try await machines[machine].database.putAwayReplacedValue(told.id)
      }
    case .recordMeeting(let machine, let standup):
      guard let now = try await machines[machine].standups()[id: standups[standup].id]
      else { return }
      let transcript = "\(team) step \(index)"
      meetings[transcript] = Recorded(
        standup: now.id, machine: machine, step: index,
        inTheTeam: try await isInTheTeam(machine))
      try await machines[machine].database.apply(
        .meetingRecorded(
          // NB: Each at a time of its own, as meetings are: the list is newest first.
          Meeting(
            id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(index)),
            transcript: transcript),
          standup: now))
    case .delete(let machine, let standup):
      let id = standups[standup].id
      guard try await machines[machine].standups()[id: id] != nil else { return }
      try await machines[machine].database.apply(.deleted(id))
      for (transcript, recorded) in meetings
      where recorded.machine == machine && recorded.standup == id {
        meetings[transcript]?.deletedByItsUser = true
      }
    case .answer(let machine, let keep):
      for question in try await machines[machine].database.teamDeletionQuestions() {
        try await machines[machine].database.answerTeamDeletion(
          of: question.standup.id, keep: keep)
      }
    case .sync(let machine):
      guard !offline.contains(machine) else { return }
      try await sync(machine)
    case .goOffline(let machine): offline.insert(machine)
    case .comeBack(let machine): offline.remove(machine)
    case .leave(let machine):
      guard try await isInTheTeam(machine) else { return }
      // NB: As `standups team leave` does: what waits is sent first when the server is there.
      if !offline.contains(machine),
        try await waiting(machine) > 0
      {
        try await sync(machine)
      }
      if let membership = try await machines[machine].membership() {
        try await machines[machine].database.leaveTeam(membership.id)
      }
      joinedAfter[machine] = nil
    case .rejoin(let machine):
      try await rejoin(machine)
    case .remove(let machine):
      guard removed[machine] == nil else { return }
      try await server.withAdministrator { [team, server] connection in
        try await TeamSchema.removeMembers(
          team: team, roles: [server.role(TeamLifeTests.names[machine])], on: connection,
          logger: TestServer.logger)
      }
      removed[machine] = index
    case .readmit(let machine):
      guard removed[machine] != nil else { return }
      try await readmit(machine)
    case .prune:
      try await history.read(server, of: team)
      _ = try await prune(server)
    case .elsewhere(let byAlice, let value):
      guard let editor = byAlice ? alsoElsewhere : outsider,
        let now = try await editor.standups()[id: Standup.productMock.id]
      else { return }
      if value < 2 {
        var renamed = now
        renamed.title = "Elsewhere \(value)"
        try await editor.database.apply(.edited(now.id, StandupEdit(from: now, to: renamed)))
      } else {
        let transcript = "\(team)-elsewhere step \(index)"
        elsewhereMeetings.insert(transcript)
        try await editor.database.apply(
          .meetingRecorded(
            Meeting(
              id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(index)),
              transcript: transcript),
            standup: now))
      }
      // NB: Out of dave's team, alice's copy is her own, and goes nowhere.
      if try await editor.membership() != nil { try await editor.sync() }
    case .aliceInElsewhere(let joins):
      try await aliceInElsewhere(joins)
    }
  }

  /// Alice's machine joins dave's team again, or leaves it as `standups team leave` does,
  /// sending what waits first; the team's life goes on beside it.
  private func aliceInElsewhere(_ joins: Bool) async throws {
    guard let alsoElsewhere else { return }
    let membership = try await alsoElsewhere.membership()
    if joins, membership == nil {
      try await alsoElsewhere.database.joinTeam(
        server: server.url(for: TeamLifeTests.names[0]), team: alsoElsewhere.team,
        machine: UUID())
      try await alsoElsewhere.sync()
    } else if !joins, let membership {
      try await alsoElsewhere.sync()
      try await alsoElsewhere.database.leaveTeam(membership.id)
    }
  }

  /// One round of `machine`'s, when it is in the team; a removal it learns of leaves the team.
  private mutating func sync(_ machine: Int) async throws {
    guard try await isInTheTeam(machine) else { return }
    do {
      try await machines[machine].sync()
    } catch SyncProblem.removed {
      #expect(removed[machine] != nil, "\(TeamLifeTests.names[machine]) was told of a removal")
      #expect(try await !isInTheTeam(machine))
      joinedAfter[machine] = nil
    }
  }

  private mutating func rejoin(_ machine: Int) async throws {
    guard removed[machine] == nil, try await !isInTheTeam(machine) else { return }
    try await history.read(server, of: team)
    try await machines[machine].database.joinTeam(
      server: server.url(for: TeamLifeTests.names[machine]), team: team, machine: UUID())
    joinedAfter[machine] = history.last
  }

  private mutating func readmit(_ machine: Int) async throws {
    _ = try await server.withAdministrator { [team, server] connection in
      try await TeamSchema.addMembers(
        team: team, roles: [server.role(TeamLifeTests.names[machine])], on: connection,
        logger: TestServer.logger)
    }
    removed[machine] = nil
  }

  private func isInTheTeam(_ machine: Int) async throws -> Bool {
    try await machines[machine].membership() != nil
  }

  /// How many of `machine`'s changes wait for the team's server; none out of the team.
  private func waiting(_ machine: Int) async throws -> Int {
    guard let membership = try await machines[machine].membership() else { return 0 }
    return try await machines[machine].database.waitingTeamChangeCount(in: membership.id)
  }

  /// Nothing of the team's reaches a role outside it: no row of it reads as dave or as a role
  /// removed, dave's machine holds none of its standups, and a removed member's machine holds no
  /// meeting recorded in the team after the removal.
  private func checkNothingLeaves() async throws {
    let outsiders =
      [TeamLifeTests.outsider] + removed.keys.sorted().map { TeamLifeTests.names[$0] }
    for name in outsiders {
      for table in ["changes", "compacted_states", "compacted_machines"] {
        let read = try await server.psql(
          "SELECT count(*) FROM standups_team.\(table) WHERE team = '\(team)'", as: name,
          password: "\(name)-secret")
        #expect(
          read.status == 0 && read.standardOutput == "0\n",
          "\(name) read \(read.standardOutput)\(read.error) of \(team)'s \(table): \(steps)")
      }
    }
    guard let outsider else { return }
    try await outsider.sync()
    let held = try await outsider.standups()
    #expect(held.map(\.id) == [Standup.productMock.id], "dave holds \(held.map(\.title))")
    // NB: Dave's team's rows, as dave reads them: none names a standup of the team's.
    let named = try await server.psql(
      """
      SELECT count(*) FROM standups_team.changes WHERE team = '\(team)-elsewhere'
        AND (change::text LIKE '%\(standups[0].id.rawValue.uuidString)%'
          OR change::text LIKE '%\(standups[1].id.rawValue.uuidString)%')
      """, as: TeamLifeTests.outsider, password: "\(TeamLifeTests.outsider)-secret")
    #expect(named.standardOutput == "0\n", "dave's team names the team's: \(named): \(steps)")
    for (index, machine) in machines.enumerated().dropFirst() {
      let standups = try await machine.standups()
      #expect(
        standups[id: Standup.productMock.id] == nil
          && !standups.contains {
            $0.meetings.contains { elsewhereMeetings.contains($0.transcript) }
          },
        "dave's team reached \(TeamLifeTests.names[index]): \(steps)")
    }
    for (machine, removal) in removed {
      let transcripts = Set(
        try await machines[machine].standups().flatMap { $0.meetings.map(\.transcript) })
      for (transcript, recorded) in meetings
      where recorded.step > removal && recorded.machine != machine && recorded.inTheTeam {
        #expect(
          !transcripts.contains(transcript),
          "\(transcript) reached \(TeamLifeTests.names[machine]), removed: \(steps)")
      }
    }
  }

  /// Dave's team, beside the team's life: alice's machine and dave's end with the same standup,
  /// whatever alice's machine did in the other team.
  private func checkDavesTeamConverges() async throws {
    guard let outsider, let alsoElsewhere else { return }
    try await aliceInElsewhere(true)
    for machine in [alsoElsewhere, outsider, alsoElsewhere] { try await machine.sync() }
    let alices = try await alsoElsewhere.standups()[id: Standup.productMock.id]
    let daves = try await outsider.standups()[id: Standup.productMock.id]
    #expect(alices != nil && alices == daves, "dave's team differs: \(steps)")
  }

  /// The quiet point: every member back in the team, every question answered, every machine
  /// synced until nothing waits, then once more, so that each has pulled the last change.
  private mutating func settle() async throws {
    for machine in removed.keys.sorted() { try await readmit(machine) }
    for machine in machines.indices { try await rejoin(machine) }
    for _ in 1...5 {
      var moved = false
      for (index, machine) in machines.enumerated() {
        for question in try await machine.database.teamDeletionQuestions() {
          try await machine.database.answerTeamDeletion(of: question.standup.id, keep: true)
        }
        moved = try await waiting(index) > 0 || moved
        try await sync(index)
        moved = try await !machine.database.teamDeletionQuestions().isEmpty || moved
      }
      if !moved { break }
    }
  }

  private mutating func checkTheRules() async throws {
    try await history.read(server, of: team)
    // NB: By ID: where a standup sits in a machine's list is that machine's (one shared there
    // goes to the end of the others' lists). Only the team's: a machine keeps apart, as its own,
    // what it changed while out of the team.
    var ends: [Set<Standup>] = []
    for machine in machines {
      let membership = try #require(try await machine.membership())
      let shared = try await machine.database.sharedStandupIDs(in: membership.id)
      ends.append(Set(try await machine.standups().filter { shared.contains($0.id) }))
    }
    let summary = ends.map { $0.map { "\($0.title): \($0.meetings.map(\.transcript))" } }
    for end in ends.dropFirst() where end != ends[0] {
      Issue.record("The machines differ: \(summary), after \(steps)")
      break
    }
    #expect(
      ends[0] == Set(history.applied),
      "the server's order applied: \(history.applied.map(\.title)), not \(summary[0])")
    for (transcript, recorded) in meetings where !recorded.deletedByItsUser {
      let inTheTeam =
        ends[0].first { $0.id == recorded.standup }?.meetings
        .contains { $0.transcript == transcript } == true
      let onItsMachine = try await machines[recorded.machine].standups()
        .contains { $0.meetings.contains { $0.transcript == transcript } }
      if recorded.inTheTeam && !history.deleted.contains(recorded.standup) {
        #expect(inTheTeam || onItsMachine, "\(transcript) was lost: \(steps)")
      } else if !recorded.inTheTeam {
        #expect(onItsMachine, "\(transcript), recorded out of the team, was lost: \(steps)")
      }
    }
    for (index, machine) in machines.enumerated() {
      let told = try await machine.database.valuesReplacedByTheTeam()
      let name = TeamLifeTests.names[index]
      for lost in history.valuesLost(by: server.role(name), after: joinedAfter[index] ?? 0) {
        #expect(
          told.contains {
            $0.standupID == lost.standup
              && FieldValue($0.value, standup: $0.standupID).isSame(as: lost)
          },
          "\(name) was not told of \(lost): \(told.map(\.value)), after \(steps)")
      }
    }
  }
}

extension Standup {
  /// The standup with one field set from a small set of values: title, length, theme, the
  /// first attendee's name, the attendee at `value` moved first, that attendee removed, or an
  /// attendee added.
  fileprivate func with(field: Int, value: Int) -> Standup {
    var standup = self
    switch field {
    case 0: standup.title = "Title \(value)"
    case 1: standup.duration = .seconds(60 * (5 + value))
    case 2: standup.theme = [Theme.bubblegum, .buttercup, .indigo, .lavender][value]
    case 3:
      if let first = standup.attendees.first {
        standup.attendees[id: first.id]?.name = "Name \(value)"
      }
    case 4:
      if value < standup.attendees.count {
        let moved = standup.attendees.remove(at: value)
        standup.attendees.insert(moved, at: 0)
      }
    case 5:
      if value < standup.attendees.count { standup.attendees.remove(at: value) }
    default:
      standup.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Added \(value)"))
    }
    return standup
  }
}
