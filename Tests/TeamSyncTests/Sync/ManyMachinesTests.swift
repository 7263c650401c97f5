import Foundation
import Models
import PostgresTestServer
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// Fifty machines in one process, each running its engine as the app does, all editing at
/// once: half of their edits to standups every machine shares and edits, half to one of their
/// own. NB: The time limit leaves room for both waits for convergence to reach their guard.
@Suite(.serialized, .timeLimit(.minutes(12)), .needsPostgreSQL)
struct ManyMachinesTests {
  static let members = (1...5).reduce(into: [String: String]()) { members, index in
    members["member\(index)"] = "member\(index)-secret"
  }

  @Test func fiftyRunningMachinesConvergeOnOneConnectionEach() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("crowd", members: Self.members)
      var machines: [Machine] = []
      for index in 0..<50 {
        let member = "member\(index % 5 + 1)"
        machines.append(
          try await Machine.joined(
            server, as: member, password: "\(member)-secret", team: "crowd"))
      }
      let common = (0..<3).map { index in
        Standup(
          id: Standup.ID(UUID()), attendees: [], duration: .seconds(60), meetings: [],
          theme: .bubblegum, title: "Common \(index)")
      }
      try await machines[0].database.apply(.added(common))
      try await machines[0].database.share(common.map(\.id))
      try await machines[0].sync()

      let engines = try await withThrowingTaskGroup(of: TeamSyncEngine.self) { group in
        for machine in machines { group.addTask { try await machine.engine() } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      let running = engines.map { engine in
        Task { await engine.run(onStatus: { _ in }, onPulled: { _ in }) }
      }
      defer {
        for engine in running { engine.cancel() }
      }
      // NB: Each machine edits the common standups once it has them, as a user would.
      #expect(try await convergence(of: machines, on: server) == 3)

      try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, machine) in machines.enumerated() {
          group.addTask {
            let own = Standup(
              id: Standup.ID(UUID()), attendees: [], duration: .seconds(60), meetings: [],
              theme: .orange, title: "Machine \(index)")
            try await machine.database.apply(.added([own]))
            try await machine.database.share([own.id])
            for edit in 0..<4 {
              let target = edit.isMultiple(of: 2) ? common[(index + edit) % 3].id : own.id
              try await machine.database.apply(
                .edited(target, StandupEdit(title: "Edit \(edit) by machine \(index)")))
            }
          }
        }
        try await group.waitForAll()
      }

      let changes = try await convergence(of: machines, on: server)
      // NB: Sharing makes one change a standup: three, then each machine's own and its four edits.
      #expect(changes == 3 + 50 * 5)
      let connections = try await server.administer(
        """
        SELECT count(*) FROM pg_stat_activity
        WHERE datname = current_database() AND usename LIKE 'member%'
        """)
      #expect(Int(connections.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 <= 50)

      let first = try await machines[0].standups().sorted {
        $0.id.rawValue.uuidString < $1.id.rawValue.uuidString
      }
      #expect(first.count == 53)
      for machine in machines.dropFirst() {
        #expect(
          try await machine.standups().sorted {
            $0.id.rawValue.uuidString < $1.id.rawValue.uuidString
          } == first)
      }
    }
  }
}
