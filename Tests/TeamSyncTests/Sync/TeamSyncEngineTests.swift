import Foundation
import Models
import PostgresTestServer
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// Machines syncing through a real PostgreSQL 15 server (``TestServer``): each machine its own
/// SQLite database, each member its own role. The engine's rounds are driven from the test, so
/// the machines share its process; ``ConvergenceTests`` runs each machine as processes of its own.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct TeamSyncEngineTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret"]

  /// alice's and bob's machines, members of "platform".
  private func aliceAndBob(_ server: TestServer) async throws -> (Machine, Machine) {
    try await server.makeTeam("platform", members: Self.members)
    return (
      try await Machine.platform(server, as: "alice"), try await Machine.platform(server, as: "bob")
    )
  }

  /// alice's and bob's machines, once alice has shared `Standup.mock` and both have synced.
  private func aliceAndBobSharingTheMock(_ server: TestServer) async throws -> (Machine, Machine) {
    try await server.makeTeam("platform", members: Self.members)
    return try await Machine.aliceAndBobSharingTheMock(server)
  }

  @Test func aSharedStandupReachesTheOtherMachineAndAPersonalOneNever() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBob(server)
      let personal = Standup(
        id: Standup.ID(UUID()), attendees: [], duration: .seconds(300), meetings: [],
        theme: .bubblegum, title: "Personal")
      try await alice.database.apply(.added([.mock, personal]))
      #expect(try await alice.database.share([Standup.mock.id]) == [Standup.mock.id])

      #expect(try await alice.sync().pushed == 1)
      let round = try await bob.sync()
      #expect(round.pulled == 1)
      #expect(round.report.standupIDs == [Standup.mock.id])
      #expect(try await bob.standups().elements == [.mock])
      #expect(try await bob.database.sharedStandupIDs() == [Standup.mock.id])

      // NB: A change to a personal standup stays here.
      try await alice.database.apply(.edited(personal.id, StandupEdit(title: "Mine alone")))
      #expect(try await alice.sync().pushed == 0)
      #expect(
        try await server.administer("SELECT count(*) FROM standups_team.changes") == "1\n")
    }
  }

  @Test func editsOnEachSideOfADisconnectionEndUpOnBoth() async throws {
    try await TestServer.withOwnServer { server in
      let (alice, bob) = try await aliceAndBobSharingTheMock(server)

      try await server.stopImmediately()
      let id = Standup.mock.id
      try await alice.database.apply(.edited(id, StandupEdit(title: "Design review")))
      let carol = Attendee(id: Attendee.ID(UUID()), name: "Carol")
      var order = Array(Standup.mock.attendees.ids)
      order.append(carol.id)
      try await bob.database.apply(
        .edited(id, StandupEdit(attendees: AttendeesEdit(added: [carol], order: order))))
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: 1_800_000_000),
        transcript: "Offline")
      try await bob.database.apply(.meetingRecorded(meeting, standup: .mock))
      // NB: Unreachable: a sentence and 69, and nothing local touched.
      let offline = await #expect(throws: SyncProblem.self) { try await alice.sync() }
      #expect(offline?.exitCode == 69)
      #expect(try await alice.database.waitingTeamChangeCount() == 1)

      try await server.startAgain()
      try await alice.sync()
      try await bob.sync()
      try await alice.sync()
      let onAlice = try await alice.standups()
      let onBob = try await bob.standups()
      #expect(onAlice == onBob)
      #expect(onAlice[id: id]?.title == "Design review")
      #expect(onAlice[id: id]?.attendees[id: carol.id]?.name == "Carol")
      #expect(onAlice[id: id]?.meetings[id: meeting.id] == meeting)
    }
  }

  @Test func aRunningEngineWhoseServerStopsMidPushGoesOfflineAndPushesOnceItIsBack()
    async throws
  {
    try await TestServer.withOwnServer { server in
      let (alice, _) = try await aliceAndBob(server)
      try await alice.database.apply(.added([.mock]))
      try await alice.database.share([Standup.mock.id])
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Edited")))
      let machine = try #require(try await alice.database.teamMembership()).machine
      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let engine = try await alice.engine()
      let running = Mutex<Task<Void, Never>?>(nil)
      defer { running.withLock { $0?.cancel() } }
      var told = statuses.makeAsyncIterator()

      // NB: The engine starts once the hold is in place, so its first push is the one held.
      try await server.holdingPushes(of: machine, as: "alice", in: "platform", atChange: 2) {
        hold in
        running.withLock {
          $0 = Task { await engine.run(onStatus: { status.yield($0) }, onPulled: { _ in }) }
        }
        try await hold.waitUntilAPushWaits(as: "alice")
        try await server.stopImmediately()
      }
      // NB: A hang here is what the suite's time limit catches.
      while let next = await told.next() {
        if case .offline(let waiting, _) = next {
          #expect(waiting == 2)
          break
        }
      }
      try await server.startAgain()
      while let next = await told.next(), next != .online(waiting: 0) {}
      #expect(
        try await server.administer(
          "SELECT count(*), count(DISTINCT machine_sequence) FROM standups_team.changes")
          == "2|2\n")
    }
  }

  @Test func theSameFieldChangedOnTwoMachinesTakesTheChangeTheServerOrderedLast() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBobSharingTheMock(server)

      let id = Standup.mock.id
      try await alice.database.apply(.edited(id, StandupEdit(title: "Alice's")))
      try await bob.database.apply(.edited(id, StandupEdit(title: "Bob's")))
      try await alice.sync()
      // NB: bob's edit waits while alice's arrives: it stays on screen, since it will be
      // ordered after hers.
      try await bob.sync()
      #expect(try await bob.standups()[id: id]?.title == "Bob's")
      try await alice.sync()
      #expect(try await alice.standups()[id: id]?.title == "Bob's")
      #expect(try await alice.standups() == bob.standups())
    }
  }

  @Test func theMachineWhoseValueLostTellsItsUserAndNoOtherDoes() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBobSharingTheMock(server)

      // NB: Two forms opened on the same standup, each saving a title and bob a length too.
      let id = Standup.mock.id
      var alices = Standup.mock
      alices.title = "Alice's"
      var bobs = Standup.mock
      bobs.title = "Bob's"
      bobs.duration = .seconds(900)
      try await alice.database.apply(.edited(id, StandupEdit(from: .mock, to: alices)))
      try await bob.database.apply(.edited(id, StandupEdit(from: .mock, to: bobs)))
      try await alice.sync()
      try await bob.sync()
      try await alice.sync()

      let lost = try await alice.database.valuesReplacedByTheTeam()
      #expect(lost.map(\.value) == [.title("Alice's")])
      #expect(lost.map(\.replacement) == [.title("Bob's")])
      #expect(try await bob.database.valuesReplacedByTheTeam().isEmpty)
      #expect(try await alice.standups() == bob.standups())
      #expect(try await alice.standups()[id: id]?.duration == .seconds(900))
    }
  }

  @Test func aRunningEngineShowsAnotherMachinesChangeWithoutBeingAsked() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBob(server)
      let (statuses, status) = AsyncStream.makeStream(of: TeamSyncStatus.self)
      let (pulls, pulled) = AsyncStream.makeStream(of: TeamPullReport.self)
      let engine = try await bob.engine()
      let running = Task {
        await engine.run(onStatus: { status.yield($0) }, onPulled: { pulled.yield($0) })
      }
      defer { running.cancel() }
      for await next in statuses where next == .online(waiting: 0) { break }

      try await alice.database.apply(.added([.mock]))
      try await alice.database.share([Standup.mock.id])
      try await alice.sync()
      // NB: No round of bob's is asked for: the server's announcement starts it.
      var iterator = pulls.makeAsyncIterator()
      let report = await iterator.next()
      #expect(report?.standupIDs == [Standup.mock.id])
      #expect(try await bob.standups().ids == [Standup.mock.id])
    }
  }

  @Test func aStandupDeletedElsewhereWhileChangedHereStaysUntilTheUserChooses() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBob(server)
      var other = Standup.engineeringMock
      other.title = "Untouched"
      try await alice.database.apply(.added([.mock, other]))
      try await alice.database.share([Standup.mock.id, other.id])
      try await alice.sync()
      try await bob.sync()

      let id = Standup.mock.id
      try await bob.database.apply(.edited(id, StandupEdit(title: "Bob's, unseen")))
      try await alice.database.apply(.deleted(id))
      try await alice.database.apply(.deleted(other.id))
      try await alice.sync()
      let round = try await bob.sync()
      #expect(round.report.deletedWhileChangedHere == [id])
      // NB: A standup bob never changed goes, as alice chose; his is kept, and he is asked.
      #expect(try await bob.standups().map(\.title) == ["Bob's, unseen"])
      let questions = try await bob.database.teamDeletionQuestions()
      #expect(questions.map(\.standup.id) == [id])
      #expect(questions.map(\.deletedBy) == [server.role("alice")])

      try await bob.database.answerTeamDeletion(of: id, keep: true)
      #expect(try await bob.database.teamDeletionQuestions().isEmpty)
      try await bob.sync()
      try await alice.sync()
      #expect(try await alice.standups().map(\.title) == ["Bob's, unseen"])
      #expect(try await alice.standups() == bob.standups())

      // NB: Letting go: the standup goes here too, and nothing more is sent.
      try await bob.database.apply(.edited(id, StandupEdit(title: "Again")))
      try await alice.database.apply(.deleted(id))
      try await alice.sync()
      try await bob.sync()
      try await bob.database.answerTeamDeletion(of: id, keep: false)
      try await bob.sync()
      try await alice.sync()
      #expect(try await bob.standups().isEmpty)
      #expect(try await alice.standups().isEmpty)
    }
  }

  @Test func aDeletionMadeWithoutSeeingAnEarlierEditAsksTheEditorToo() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBobSharingTheMock(server)

      // NB: bob's edit reaches the server first; alice deletes without having pulled it.
      let id = Standup.mock.id
      try await bob.database.apply(.edited(id, StandupEdit(title: "Bob's, first")))
      try await bob.sync()
      try await alice.database.apply(.deleted(id))
      try await alice.sync()
      let round = try await bob.sync()
      #expect(round.report.deletedWhileChangedHere == [id])
      #expect(try await bob.standups().map(\.title) == ["Bob's, first"])

      // NB: A deletion made after pulling bob's edit is no question: alice saw it.
      try await bob.database.answerTeamDeletion(of: id, keep: true)
      try await bob.sync()
      try await alice.sync()
      #expect(try await alice.standups().map(\.title) == ["Bob's, first"])
      try await alice.database.apply(.deleted(id))
      try await alice.sync()
      #expect(try await bob.sync().report.deletedWhileChangedHere.isEmpty)
      #expect(try await bob.standups().isEmpty)
    }
  }

  /// A pull asks for windows of numbers up to the team's newest: more changes than one window
  /// holds, and numbers no change has (a history pruned by hand), still bring everything.
  @Test func aPullOfMoreThanOneWindowAcrossMissingNumbersBringsEveryChange() async throws {
    try await TestServer.withTestServer { server in
      let (alice, bob) = try await aliceAndBob(server)
      let standups = (1...1_005).map { index in
        Standup(
          id: Standup.ID(UUID()), attendees: [], duration: .seconds(60), meetings: [],
          theme: .bubblegum, title: "Standup \(index)")
      }
      try await alice.database.apply(.added(standups))
      try await alice.database.share(standups.map(\.id))
      #expect(try await alice.sync().pushed == 1_005)
      _ = try await server.administer(
        "DELETE FROM standups_team.changes WHERE sequence IN (3, 1001)")

      let round = try await bob.sync()
      #expect(round.pulled == 1_003)
      #expect(try await bob.standups().count == 1_003)
      #expect(try await bob.database.teamMembership()?.lastSequence == 1_005)
      #expect(try await bob.sync().pulled == 0)
    }
  }

  @Test func aPushMadeAgainAfterACrashAddsNothingTwice() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.joined(
        server, as: "alice", password: "alice-secret", team: "platform")
      try await alice.database.apply(.added([.mock]))
      try await alice.database.share([Standup.mock.id])
      for minutes in 1...20 {
        try await alice.database.apply(
          .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * minutes))))
      }
      // NB: The server commits a push and the machine stops before it forgets what it pushed:
      // the next round pushes the same changes again.
      let waiting = try await alice.database.waitingTeamChanges(limit: 100)
      #expect(waiting.count == 21)
      let membership = try #require(try await alice.database.teamMembership())
      let description = try ConnectionDescription(url: membership.server, environment: [:])
      try await description.withConnection(password: "alice-secret", logger: TestServer.logger) {
        connection in
        try await TeamServer.push(
          Array(waiting.prefix(15)), team: "platform",
          machine: MemberMachine(madeBy: description.user, machine: membership.machine),
          on: connection, logger: TestServer.logger)
      }
      #expect(try await alice.sync().pushed == 21)
      #expect(
        try await server.administer(
          "SELECT count(*), count(DISTINCT machine_sequence) FROM standups_team.changes")
          == "21|21\n")
      #expect(try await alice.database.waitingTeamChangeCount() == 0)
    }
  }

  @Test func aRoleOutsideTheTeamAWrongPasswordAndNoServerEachGetASentenceAndACode() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      try await server.createRole("mallory", password: "mallory-secret")
      let mallory = try await Machine.joined(
        server, as: "mallory", password: "mallory-secret", team: "platform")
      try await mallory.database.apply(.added([.mock]))
      // NB: `team join` asks first, so a joined machine whose role is not in the team was taken
      // out of it (RemovalTests): it leaves, and keeps its standups.
      let outsider = await #expect(throws: SyncProblem.self) { try await mallory.sync() }
      #expect(outsider == .removed(role: server.role("mallory"), team: "platform", unsent: 0))
      #expect(outsider?.exitCode == 77)
      #expect(try await mallory.database.teamMembership() == nil)
      #expect(try await mallory.standups().elements == [.mock])

      let wrong = try await Machine.joined(
        server, as: "alice", password: "not-it", team: "platform")
      let refused = await #expect(throws: SyncProblem.self) { try await wrong.sync() }
      #expect(refused?.exitCode == 77, "\(String(describing: refused))")
      #expect(refused?.description.contains("password") == true, "\(String(describing: refused))")

      // NB: Port 1 on loopback: nothing listens there.
      let nowhere = try await Machine.joined(
        server, as: "alice", password: "alice-secret", team: "platform")
      try await nowhere.database.leaveTeam()
      try await nowhere.database.joinTeam(
        server: "postgresql://alice@127.0.0.1:1/postgres?sslmode=disable", team: "platform",
        machine: UUID())
      let unreachable = await #expect(throws: SyncProblem.self) { try await nowhere.sync() }
      #expect(unreachable?.exitCode == 69, "\(String(describing: unreachable))")
    }
  }
}
