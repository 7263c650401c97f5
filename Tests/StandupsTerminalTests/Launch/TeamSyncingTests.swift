import Clocks
import Foundation
import Models
import Synchronization
import TeamSync
import Testing

@testable import StandupsTerminal
@testable import StorageClient

struct TeamSyncingTests {
  /// However fast the engines tell, what waits for the screen is one status a team (its last)
  /// and one report; the screen's task is signalled at most once for it.
  @Test func whatTheEnginesTellWaitsAsEachTeamsLastStatusAndOneReport() async throws {
    let server = "postgresql://alice@127.0.0.1/team"
    let platform = TeamMembership(id: 1, server: server, team: "platform", machine: UUID())
    let design = TeamMembership(id: 2, server: server, team: "design", machine: UUID())
    let removed = TeamSyncStatus.stopped(
      waiting: 0, problem: .removed(role: "alice", team: "design", unsent: 0))
    let unshown = TeamSyncing.Unshown()
    for number in 1...1000 {
      unshown.status(.online(waiting: number), of: platform)
      unshown.status(.online(waiting: number), of: design)
      var report = TeamPullReport()
      report.standupIDs = [Standup.ID(UUID())]
      unshown.pulled(report)
    }
    unshown.status(removed, of: design)
    unshown.status(.online(waiting: 0), of: platform)

    let (report, statuses) = unshown.take()
    #expect(report.standupIDs.count == 1000)
    #expect(
      Dictionary(uniqueKeysWithValues: statuses.map { ($1.team, $0) })
        == ["platform": .online(waiting: 0), "design": removed])
    let (nothing, none) = unshown.take()
    #expect(nothing.isEmpty && none.isEmpty)
    unshown.finish()
    #expect(await unshown.news.reduce(0) { count, _ in count + 1 } == 1)
  }

  /// The live app syncs each team this machine is in from when it joins it, not only those it was
  /// in at launch: a team joined in a shell while the app runs starts its engine the next time the
  /// app reads its teams, on the connection its server's other teams share; one left and joined
  /// again is a new membership with an engine of its own.
  @Test func aTeamJoinedWhileTheAppRunsSyncsOnItsServersSharedLink() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("each-team-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = StandupsDatabase(path: folder.appendingPathComponent("standups.sqlite").path)
    _ = try await database.load()
    let server = "postgresql://alice@127.0.0.1/team"
    let platform = try await database.joinTeam(server: server, team: "platform", machine: UUID())
    let team = TeamOnScreen(database: database, memberships: [platform])
    let clock = TestClock()
    let started = Mutex<[(team: String, id: TeamMembership.ID, link: ServerLink)]>([])
    let (eachRead, tell) = AsyncStream.makeStream(of: Bool.self)

    let syncing = Task {
      await TeamSyncing.syncEachTeam(in: team, every: .seconds(2), clock: clock) {
        membership, link in
        started.withLock { $0.append((membership.team, membership.id, link)) }
        await untilCancelled()
      } readingAgain: { teamsChanged in
        tell.yield(teamsChanged)
      }
    }
    var teamsChanged = eachRead.makeAsyncIterator()
    #expect(await teamsChanged.next() == false)
    #expect(started.withLock { $0.map(\.team) } == ["platform"])

    // NB: Joined in a shell, and left and joined again: each a membership of its own.
    let design = try await database.joinTeam(server: server, team: "design", machine: UUID())
    _ = try await database.leaveTeam(platform.id)
    let again = try await database.joinTeam(server: server, team: "platform", machine: UUID())
    let elsewhere = try await database.joinTeam(
      server: "postgresql://alice@db.example/team", team: "product", machine: UUID())
    await advance(clock)
    #expect(
      await teamsChanged.next() == true, "the teams changed: the list's marks are drawn again")
    let engines = started.withLock { $0 }
    #expect(engines.map(\.id) == [platform.id, design.id, again.id, elsewhere.id])
    #expect(engines[0].link === engines[1].link)
    #expect(engines[1].link === engines[2].link)
    #expect(engines[2].link !== engines[3].link)

    await advance(clock)
    #expect(await teamsChanged.next() == false)
    #expect(started.withLock { $0.count } == 4, "no team's engine started twice")

    // NB: `team join` of a team this machine is in makes it another machine there.
    let asAnother = try await database.joinTeam(server: server, team: "design", machine: UUID())
    #expect(asAnother.id == design.id)
    await advance(clock)
    _ = await teamsChanged.next()
    #expect(started.withLock { $0.map(\.id) }.last == design.id)
    #expect(started.withLock { $0.count } == 5)
    syncing.cancel()
    await syncing.value
  }

  /// Advances `clock` past the app's next read of its teams, once the app waits for it.
  func advance(_ clock: TestClock<Duration>) async {
    while (try? await clock.checkSuspension()) != nil {}
    await clock.advance(by: .seconds(2))
  }

  /// Returns once the task is cancelled: a fake engine, which runs until the app quits.
  func untilCancelled() async {
    let (stream, end) = AsyncStream.makeStream(of: Void.self)
    await withTaskCancellationHandler {
      for await _ in stream {}
    } onCancel: {
      end.finish()
    }
  }

}
