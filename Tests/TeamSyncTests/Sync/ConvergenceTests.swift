import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import PropertyBased
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// Random edits on three machines, each now and then offline, through one real server: once all
/// are back and have synced, every machine holds the same standups, and they are what applying
/// the server's change log in its order gives — so an edit is missing only where a change the
/// server ordered later set the same field. No recorded meeting is ever lost.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ConvergenceTests {
  enum Step: Equatable, Sendable {
    case edit(machine: Int, standup: Int, kind: Int, value: Int)
    case sync(machine: Int)
    case goOffline(machine: Int)
    case comeBack(machine: Int)
  }

  static let steps = Gen.frequency(
    (
      6,
      zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: 0...5), Gen.int(in: 0...3))
        .map { Step.edit(machine: $0, standup: $1, kind: $2, value: $3) }
    ),
    (4, Gen.int(in: 0...2).map(Step.sync)),
    (1, Gen.int(in: 0...2).map(Step.goOffline)),
    (1, Gen.int(in: 0...2).map(Step.comeBack))
  )
  .array(of: 1...40)

  static let members = ["alice": "alice-secret", "bob": "bob-secret", "carol": "carol-secret"]

  @Test func threeMachinesConvergeOnTheServersOrder() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("seed", members: Self.members)
      // NB: A fresh team for each run of the property.
      let teams = Mutex(0)
      await propertyCheck(count: 12, input: Self.steps) { steps in
        do {
          let team = teams.withLock { count in
            count += 1
            return count
          }
          try await run(steps, team: "team\(team)", server)
        } catch {
          Issue.record(error)
        }
      }
    }
  }

  private func run(_ steps: [Step], team: String, _ server: TestServer) async throws {
    try await server.withAdministrator { connection in
      try await TeamSchema.addMembers(
        team: team, roles: Self.members.keys.sorted().map(server.role), on: connection,
        logger: TestServer.logger)
    }
    var machines: [Machine] = []
    for role in Self.members.keys.sorted() {
      machines.append(
        try await .joined(server, as: role, password: Self.members[role]!, team: team))
    }
    let standups = [Standup.mock, Standup.engineeringMock]
    try await machines[0].database.apply(.added(standups))
    try await machines[0].database.share(standups.map(\.id))
    for machine in machines { try await machine.sync() }

    var offline = Set<Int>()
    var meetings: [Meeting] = []
    var counter = 0
    for step in steps {
      counter += 1
      switch step {
      case .edit(let index, let standup, let kind, let value):
        let machine = machines[index]
        guard let stored = try await machine.standups()[id: standups[standup].id] else { continue }
        var edited = stored
        switch kind {
        case 0: edited.title = ["Design", "Review", "Sync", "Retro"][value]
        case 1: edited.duration = .seconds(60 * (value + 1))
        case 2: edited.theme = [.bubblegum, .buttercup, .lavender, .orange][value]
        case 3:
          edited.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "New \(counter)"))
        case 4:
          guard let first = edited.attendees.first else { continue }
          edited.attendees[id: first.id]?.name = ["Ann", "Ben", "Cy", "Di"][value]
        default:
          let meeting = Meeting(
            id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(counter) * 60),
            transcript: "Meeting \(counter)")
          meetings.append(meeting)
          try await machine.database.apply(.meetingRecorded(meeting, standup: stored))
          continue
        }
        try await machine.database.apply(.edited(stored.id, StandupEdit(from: stored, to: edited)))
      case .sync(let index):
        if !offline.contains(index) { try await machines[index].sync() }
      case .goOffline(let index): offline.insert(index)
      case .comeBack(let index): offline.remove(index)
      }
    }

    for _ in 1...2 {
      for machine in machines { try await machine.sync() }
    }
    let first = try await machines[0].standups()
    for machine in machines.dropFirst() {
      #expect(try await machine.standups() == first)
    }
    #expect(first == (try await serverOrder(server, team: team)))
    for meeting in meetings {
      #expect(first.contains { $0.meetings[id: meeting.id] == meeting })
    }
  }

  /// What applying the team's change log in the server's order to no standups gives.
  private func serverOrder(_ server: TestServer, team: String) async throws
    -> IdentifiedArrayOf<Standup>
  {
    let description = try ConnectionDescription(url: server.url(for: "alice"), environment: [:])
    let changes = try await description.withConnection(
      password: Self.members["alice"], logger: TestServer.logger
    ) { connection in
      try await TeamServer.pull(
        team: team, after: 0, limit: 100_000, on: connection, logger: TestServer.logger)
    }
    var standups: IdentifiedArrayOf<Standup> = []
    for change in changes {
      try JSONDecoder().decode(StandupsChange.self, from: Data(change.change.utf8))
        .apply(to: &standups)
    }
    return standups
  }
}
