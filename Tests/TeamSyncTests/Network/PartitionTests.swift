import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// The team's server across links that fail: the server in a network namespace of its own,
/// each member's machine reaching it over a link of its own, which a test cuts or makes lose
/// packets (``TestNetwork``). What is checked: a machine says it is offline within ten seconds
/// of its link going quiet, nothing hangs, the other machine goes on syncing, and everything
/// arrives, once, when the link is back.
@Suite(
  .serialized, .timeLimit(.minutes(5)), .needsPostgreSQL,
  .enabled(
    if: TestNetwork.unavailable == nil,
    "needs network namespaces: root, iproute2 and nftables (TestNetwork.unavailable)"))
struct PartitionTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret"]

  @Test func aRunningAppCutOffInTheMiddleOfAPushIsOfflineWithinTenSecondsAndCatchesUpAfter()
    async throws
  {
    try await TestNetwork.withNetwork(links: 3) { network in
      try await TestServer.withOwnServer(in: network) { server in
        try await server.makeTeam("platform", members: Self.members)
        let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(
          server, over: Array(network.links[1...]))

        // NB: Each status with when the engine told it: the user sees it then, however late
        // this test's task, sharing two cores with the suites running beside it, reads it.
        let (statuses, status) = AsyncStream.makeStream(
          of: (TeamSyncStatus, ContinuousClock.Instant).self)
        let engine = try await bob.engine()
        let running = Task {
          await engine.run(
            onStatus: { status.yield(($0, ContinuousClock.now)) }, onPulled: { _ in })
        }
        defer { running.cancel() }
        var told = statuses.makeAsyncIterator()
        while let (next, _) = await told.next(), next != .online(waiting: 0) {}

        let machine = try #require(try await bob.database.teamMembership()).machine
        try await server.holdingPushes(of: machine, as: "bob", in: "platform", atChange: 150) {
          hold in
          for minutes in 1...200 {
            try await bob.database.apply(
              .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * minutes))))
          }
          try await hold.waitUntilAPushWaits(as: "bob")
          try await network.cut(network.links[2])
          let cut = ContinuousClock.now
          while let (next, toldAt) = await told.next() {
            guard case .offline = next else { continue }
            #expect(toldAt - cut < .seconds(10))
            break
          }
        }

        // NB: Alice's link is whole: she syncs while bob is cut off.
        try await alice.database.apply(
          .edited(Standup.mock.id, StandupEdit(title: "While bob was away")))
        try await alice.sync()

        try await network.heal(network.links[2])
        while let (next, _) = await told.next(), next != .online(waiting: 0) {}
        try await alice.sync()
        #expect(try await bob.standups()[id: Standup.mock.id]?.title == "While bob was away")
        #expect(try await alice.standups() == bob.standups())
        #expect(
          try await server.administer(
            """
            SELECT count(*), count(DISTINCT machine_sequence) FROM standups_team.changes
            WHERE made_by = '\(server.role("bob"))'
            """) == "200|200\n")
      }
    }
  }

  @Test func aSyncCutOffInTheMiddleOfItsPushEndsWithASentenceAndLosesNothing() async throws {
    try await TestNetwork.withNetwork(links: 2) { network in
      try await TestServer.withOwnServer(in: network) { server in
        try await server.makeTeam("platform", members: Self.members)
        let home = try Home(password: "alice-secret", in: server.folder)
        let database = StandupsDatabase(path: home.database)
        _ = try await database.load()
        try await database.apply(.added([.mock]))
        let machine = UUID()
        try await database.joinTeam(
          server: server.url(for: "alice", over: network.links[1]), team: "platform",
          machine: machine)
        try await database.share([Standup.mock.id])
        for minutes in 1...300 {
          try await database.apply(
            .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * minutes))))
        }

        try await server.holdingPushes(of: machine, as: "alice", in: "platform", atChange: 100) {
          hold in
          let process = try start(["sync"], home.environment, errorFile: home.errorFile)
          try await hold.waitUntilAPushWaits(as: "alice", gaveUp: { !process.isRunning })
          try await network.cut(network.links[1])
          #expect(await endsWithin(seconds: 20, process), "a sync on a dead link must end")
          #expect(process.terminationStatus == 69)
          let said = try String(contentsOfFile: home.errorFile, encoding: .utf8)
          #expect(said.contains("cannot be reached"), "\(said)")
        }
        #expect(try await database.waitingTeamChangeCount() == 301)

        try await network.heal(network.links[1])
        let finish = try await standups(["sync"], home.environment)
        #expect(finish.status == 0, "\(finish.error)")
        #expect(
          try await server.administer(
            "SELECT count(*), count(DISTINCT machine_sequence) FROM standups_team.changes")
            == "301|301\n")
      }
    }
  }

  @Test func twoMachinesOnLinksLosingThirtyPercentOfTheirPacketsConverge() async throws {
    try await TestNetwork.withNetwork(links: 3) { network in
      try await TestServer.withOwnServer(in: network) { server in
        try await server.makeTeam("platform", members: Self.members)
        let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(
          server, over: Array(network.links[1...]))
        try await network.lose(30, on: network.links[1])
        try await network.lose(30, on: network.links[2])

        let engines = [try await alice.engine(), try await bob.engine()]
        let running = engines.map { engine in
          Task { await engine.run(onStatus: { _ in }, onPulled: { _ in }) }
        }
        defer {
          for engine in running { engine.cancel() }
        }
        for step in 0..<20 {
          let machine = step.isMultiple(of: 2) ? alice : bob
          try await machine.database.apply(
            .edited(Standup.mock.id, StandupEdit(title: "Step \(step)")))
          try await machine.database.apply(
            .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * (step + 1)))))
        }

        // NB: Alone, on these lossy links, this takes seconds; the guard allows for a loaded CI.
        _ = try await convergence(of: [alice, bob], on: server, guardTime: .seconds(240))
        #expect(try await alice.standups() == bob.standups())
        #expect(try await server.administer("SELECT count(*) FROM standups_team.changes") == "41\n")
      }
    }
  }
}
