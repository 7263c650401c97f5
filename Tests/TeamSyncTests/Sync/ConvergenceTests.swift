import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import PropertyBased
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// Random edits on three machines, each machine a HOME of its own and every step a process of
/// its own (`TeamMachine` edits, `standups sync` syncs), with machines cut off and the server
/// stopped now and then. Once all are back and have synced, every machine's `standups export`
/// is the same, byte for byte, and it is what applying the server's change log in its order
/// gives — so an edit is missing only where a change the server ordered later set the same
/// field. No recorded meeting is ever lost.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct ConvergenceTests {
  enum Step: Equatable, Sendable {
    case edit(machine: Int, standup: Int, kind: Int, value: Int)
    case sync(machine: Int)
    case goOffline(machine: Int)
    case comeBack(machine: Int)
    case serverStops
    case serverStarts
  }

  static let steps = Gen.frequency(
    (
      6,
      zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: 0...5), Gen.int(in: 0...3))
        .map { Step.edit(machine: $0, standup: $1, kind: $2, value: $3) }
    ),
    (4, Gen.int(in: 0...2).map(Step.sync)),
    (1, Gen.int(in: 0...2).map(Step.goOffline)),
    (1, Gen.int(in: 0...2).map(Step.comeBack)),
    (1, Gen.always(Step.serverStops)),
    (1, Gen.always(Step.serverStarts))
  )
  .array(of: 1...30)

  static let members = ["alice": "alice-secret", "bob": "bob-secret", "carol": "carol-secret"]

  @Test func threeMachinesConvergeOnTheServersOrder() async throws {
    try await TestServer.withOwnServer { server in
      try await server.makeTeam("seed", members: Self.members)
      // NB: A fresh team for each run of the property.
      let teams = Mutex(0)
      await propertyCheck(count: 8, input: Self.steps) { steps in
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
    _ = try await server.withAdministrator { connection in
      try await TeamSchema.addMembers(
        team: team, roles: Self.members.keys.sorted().map(server.role), on: connection,
        logger: TestServer.logger)
    }
    var machines: [Home] = []
    for name in Self.members.keys.sorted() {
      let home = try Home(password: Self.members[name]!, in: server.folder)
      try expectSuccess(
        await standups(["team", "join", server.url(for: name), team], home.environment))
      machines.append(home)
    }
    let standupIDs = [Standup.mock.id, Standup.engineeringMock.id]
    let seed = try machines[0].write(standups: [.mock, .engineeringMock])
    try expectSuccess(await standups(["import", seed], machines[0].environment))
    try expectSuccess(await standups(["share", "--all"], machines[0].environment))
    for machine in machines { try expectSuccess(await standups(["sync"], machine.environment)) }

    var offline = Set<Int>()
    var isServerUp = true
    var transcripts: [String] = []
    for (number, step) in steps.enumerated() {
      switch step {
      case .edit(let machine, let standup, let kind, let value):
        let kind = TeamMachineKind.allCases[kind]
        if kind == .meeting { transcripts.append("Meeting \(number)") }
        try expectSuccess(
          await runProgram(
            executable("TeamMachine"),
            [
              machines[machine].database, standupIDs[standup].uuidString, kind.rawValue,
              String(value), String(number),
            ]))
      case .sync(let machine):
        guard !offline.contains(machine) else { continue }
        let sync = try await standups(["sync"], machines[machine].environment)
        // NB: With the server stopped, a sentence and 69, and the changes still waiting.
        #expect(sync.status == (isServerUp ? 0 : 69), "\(sync.error)")
      case .goOffline(let machine): offline.insert(machine)
      case .comeBack(let machine): offline.remove(machine)
      case .serverStops where isServerUp:
        try await server.stopImmediately()
        isServerUp = false
      case .serverStarts where !isServerUp:
        try await server.startAgain()
        isServerUp = true
      case .serverStops, .serverStarts: continue
      }
    }

    if !isServerUp { try await server.startAgain() }
    for _ in 1...2 {
      for machine in machines { try expectSuccess(await standups(["sync"], machine.environment)) }
    }
    var exports: [CommandOutput] = []
    for machine in machines { exports.append(try await standups(["export"], machine.environment)) }
    for export in exports { try expectSuccess(export) }
    for export in exports.dropFirst() {
      #expect(export.standardOutput == exports[0].standardOutput)
    }
    let converged = try StandupsFile.decode(Data(exports[0].standardOutput.utf8)).standups
    #expect(converged == (try await serverOrder(server, team: team)))
    let recorded = Set(converged.flatMap { $0.meetings.map(\.transcript) })
    for transcript in transcripts {
      #expect(recorded.contains(transcript), "\(transcript) was lost")
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
      var changes: [PulledTeamChange] = []
      var after: Int64 = 0
      while true {
        let window = try await TeamServer.pull(
          team: team, after: after, on: connection, logger: TestServer.logger)
        changes += window.changes
        guard window.through > after else { return changes }
        after = window.through
      }
    }
    var standups: IdentifiedArrayOf<Standup> = []
    for change in changes {
      try JSONDecoder().decode(StandupsChange.self, from: Data(change.change.utf8))
        .apply(to: &standups)
    }
    return standups
  }

  private func expectSuccess(_ output: CommandOutput) throws {
    guard output.status == 0 else {
      throw TestServerError("exit \(output.status): \(output.error)")
    }
  }
}

/// The edits `TeamMachine` makes, by the names it takes.
enum TeamMachineKind: String, CaseIterable {
  case title, duration, theme, attendee, rename, meeting
}
