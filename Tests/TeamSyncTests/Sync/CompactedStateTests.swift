import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// Machines that start from a team's compacted state rather than from each change: one joining,
/// one whose place the owner pruned while it was away, one coming back to a server restored and
/// pruned meanwhile (`StorageClient.TeamLedger.startFrom`, `TeamSyncEngine.round`).
@Suite(.serialized, .timeLimit(.minutes(8)), .needsPostgreSQL)
struct CompactedStateTests {
  static let members = Machine.platformMembers

  /// The plain version and the fast one agree: a machine that replayed every change and one that
  /// started from the compacted state hold the same standups, after changes of every kind.
  @Test func startingFromTheCompactedStateEndsWhereReplayingEveryChangeDoes() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.added([.productMock, .engineeringMock]))
      try await alice.database.share([Standup.productMock.id, Standup.engineeringMock.id])
      try await alice.sync()
      try await bob.sync()
      var generator = SeededGenerator(seed: 47)
      for step in 0..<120 {
        let machine = step.isMultiple(of: 2) ? alice : bob
        if let change = try await randomChange(step, to: machine, using: &generator) {
          try await machine.database.apply(change)
        }
        if step.isMultiple(of: 7) { try await machine.sync() }
      }
      try await alice.sync()
      try await bob.sync()
      try await alice.sync()
      // NB: A deletion that meets no change elsewhere: one that does is a question for the
      // user (`aMachineThePruneDidNotWaitForStartsFromTheStateAndLosesNoEdit`).
      try await alice.database.apply(.deleted(Standup.engineeringMock.id))
      try await alice.sync()
      try await bob.sync()

      let pruned = try await prune(server)
      #expect(pruned.map(\.kept) == [0])
      let carol = try await Machine.platform(server, as: "carol")
      let round = try await carol.sync()
      #expect(round.pulled == 0)
      #expect(round.report.startedFromCompactedState == pruned.first?.compactedThrough)
      #expect(try await carol.standups() == alice.standups())
      #expect(try await bob.standups() == alice.standups())
    }
  }

  /// A hundred thousand changes, written through psql as a member would: a machine joining
  /// starts from the compacted state, pulling none of them, and the history keeps none once
  /// the only machine behind it has not been seen for the idle days.
  @Test func aMachineJoiningAHundredThousandChangesStartsFromTheCompactedState() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      let standups = (0..<20).map { index in
        Standup(id: Standup.ID(UUID()), title: "Standup \(index)")
      }
      try await alice.database.apply(.added(standups))
      try await alice.database.share(standups.map(\.id))
      try await alice.sync()
      try await alice.database.apply(
        .edited(standups[0].id, StandupEdit(duration: .seconds(900))))

      let template = try encoded(.edited(standups[0].id, StandupEdit(title: "")))
      let ids = standups.map { "'\($0.id.rawValue.uuidString)'" }.joined(separator: ", ")
      // NB: A thousand changes a transaction, as pushes come: each change takes its number
      // by updating the team's row, and a hundred thousand updates of one row in one
      // transaction cost the square of their count.
      let written = try await server.psql(
        """
        DO $$
        BEGIN
          FOR batch IN 0..99 LOOP
            INSERT INTO standups_team.changes
              (team, machine, machine_sequence, based_on, change)
            SELECT 'platform', '00000000-0000-0000-0000-0000000000b0', n, 0,
              jsonb_set(
                jsonb_set('\(template)'::jsonb, '{edited,standup}',
                          to_jsonb((ARRAY[\(ids)])[1 + n % 20])),
                '{edited,edit,title}', to_jsonb('Title ' || n))
            FROM generate_series(batch * 1000 + 1, batch * 1000 + 1000) AS n;
            COMMIT;
          END LOOP;
        END
        $$
        """, as: "bob", password: "bob-secret")
      #expect(written.status == 0, "\(written.error)")
      var expected = IdentifiedArray(uniqueElements: standups)
      for n in 1...100_000 { expected[id: standups[n % 20].id]?.title = "Title \(n)" }

      let waiting = try await prune(server)
      #expect(waiting.first?.kept == 100_000)
      #expect(waiting.first?.waitedFor?.madeBy == server.role("alice"))
      try await server.administer(
        "UPDATE standups_team.machines SET seen_at = now() - interval '31 days'")
      let pruned = try #require(try await prune(server).first)
      #expect(pruned.kept == 0)
      #expect(pruned.passedOver.map(\.madeBy) == [server.role("alice")])
      #expect(pruned.prunedThrough == pruned.compactedThrough)
      #expect(
        try await server.administer(
          "SELECT count(*) FROM standups_team.changes WHERE team = 'platform'")
          == "0\n")

      let carol = try await Machine.platform(server, as: "carol")
      let round = try await carol.sync()
      #expect(round.pulled == 0)
      #expect(round.report.startedFromCompactedState == pruned.compactedThrough)
      #expect(try await carol.standups() == expected)

      // NB: Alice's machine, behind the pruned history, starts from the state too, and its
      // change still waiting reaches everyone.
      let alicesRound = try await alice.sync()
      #expect(alicesRound.report.startedFromCompactedState == pruned.compactedThrough)
      #expect(alicesRound.pushed == 1)
      try await carol.sync()
      expected[0].duration = .seconds(900)
      #expect(try await alice.standups() == expected)
      #expect(try await carol.standups() == expected)
    }
  }

  /// A machine not seen for the idle days is not waited for: when it comes back it starts from
  /// the compacted state, and nothing of its is lost. Its changes the server had folded in are
  /// not pushed again; its changes still waiting are pushed after the state; a standup the team
  /// deleted while it had changed it is kept, and its user asked, whether its change was still
  /// waiting or already folded into the state.
  @Test func aMachineThePruneDidNotWaitForStartsFromTheStateAndLosesNoEdit() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.added([.productMock]))
      try await alice.database.share([Standup.productMock.id])
      try await alice.sync()
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Bob's")))
      try await bob.database.apply(.added([.engineeringMock]))
      try await bob.database.share([Standup.engineeringMock.id])
      try await bob.sync()
      try await alice.sync()
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .lavender)))
      try await bob.database.apply(
        .edited(Standup.engineeringMock.id, StandupEdit(title: "Bob's engineering")))
      try await bob.pushWithoutPulling()
      try await bob.database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(1200))))
      try await bob.database.apply(
        .edited(Standup.productMock.id, StandupEdit(title: "Bob's product")))
      try await server.administer(
        """
        UPDATE standups_team.machines SET seen_at = now() - interval '40 days'
        WHERE made_by = '\(server.role("bob"))'
        """)

      // NB: Alice deletes both standups without having seen bob's changes to them.
      try await alice.database.apply(.deleted(Standup.engineeringMock.id))
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Alice's")))
      try await alice.database.apply(.deleted(Standup.productMock.id))
      try await alice.sync()
      let pruned = try #require(try await prune(server).first)
      #expect(pruned.passedOver.map(\.madeBy) == [server.role("bob")])
      #expect(pruned.kept == 0)

      let round = try await bob.sync()
      #expect(round.report.startedFromCompactedState == pruned.compactedThrough)
      #expect(
        Set(round.report.deletedWhileChangedHere)
          == [Standup.productMock.id, Standup.engineeringMock.id])
      #expect(round.pushed == 2)
      #expect(
        try await server.administer(
          "SELECT count(*) FROM standups_team.changes WHERE made_by = '\(server.role("bob"))'")
          == "2\n")
      try await alice.sync()
      let mock = try #require(try await alice.standups()[id: Standup.mock.id])
      #expect(mock.title == "Alice's")
      #expect(mock.theme == .lavender)
      #expect(mock.duration == .seconds(1200))
      #expect(try await bob.standups()[id: Standup.mock.id] == mock)
      #expect(try await bob.standups()[id: Standup.productMock.id]?.title == "Bob's product")
      #expect(
        try await bob.standups()[id: Standup.engineeringMock.id]?.title == "Bob's engineering")
      // NB: Alice had seen bob's title; the state cannot say so, so nothing is told.
      #expect(try await bob.database.valuesReplacedByTheTeam().isEmpty)

      // NB: The theme bob's machine pushed before the prune is in the state: it left the outbox,
      // and is not applied again over the team's later theme.
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .orange)))
      try await alice.sync()
      try await bob.sync()
      #expect(try await bob.standups()[id: Standup.mock.id]?.theme == .orange)
      #expect(try await bob.database.waitingTeamChangeCount() == 0)
    }
  }

  /// A server restored from an older backup, then pruned by its owner before a machine that had
  /// seen more comes back: the machine's place is in the pruned history, so it asks the server
  /// whether it has the last change applied here of each machine's, finds it has not, and keeps
  /// its standups and sends them again (its values winning where they and the state differ),
  /// deleting nothing.
  @Test func aServerRestoredAndPrunedBeforeAMachineComesBackLosesItNothing() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let backup = try await server.backUp()
      try await alice.database.apply(
        .edited(Standup.mock.id, StandupEdit(title: "After the backup")))
      try await alice.sync()
      try await bob.sync()

      try await server.restore(from: backup)
      let carol = try await Machine.platform(server, as: "carol")
      try await carol.sync()
      try await carol.database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(1200))))
      try await carol.sync()
      let pruned = try #require(try await prune(server, idleDays: 0).first)
      #expect(pruned.kept == 0)

      let round = try await alice.sync()
      #expect(round.report.startedFromCompactedState == pruned.compactedThrough)
      #expect(round.report.resent == 1)
      try await bob.sync()
      try await carol.sync()
      #expect(try await carol.standups()[id: Standup.mock.id]?.title == "After the backup")
      #expect(try await alice.standups() == carol.standups())
      #expect(try await bob.standups() == carol.standups())
    }
  }

  /// A pull under which the owner pruned the history reads nothing of it, and says so: the
  /// window it asked for has lost changes.
  @Test func aPullAfterThePrunedBeginningIsRefused() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, _) = try await Machine.aliceAndBobSharingTheMock(server)
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "Two")))
      try await alice.sync()
      let pruned = try #require(try await prune(server, idleDays: 0).first)
      #expect(pruned.prunedThrough == 2)

      let membership = try #require(try await alice.database.teamMembership())
      let description = try ConnectionDescription(
        url: membership.server, environment: alice.environment)
      let password = try description.password(environment: alice.environment)
      _ = try await description.withConnection(password: password, logger: TestServer.logger) {
        connection in
        await #expect(throws: TeamServer.HistoryPruned.self) {
          try await TeamServer.pull(
            team: "platform", after: 1, on: connection, logger: TestServer.logger)
        }
      }
    }
  }

  /// A change of one of the kinds a user makes, but a deletion, to one of the three shared
  /// standups.
  private func randomChange(
    _ step: Int, to machine: Machine, using generator: inout SeededGenerator
  ) async throws -> StandupsChange? {
    let ids = [Standup.mock.id, Standup.productMock.id, Standup.engineeringMock.id]
    let id = ids[Int(generator.next() % 3)]
    guard let standup = try await machine.standups()[id: id] else { return nil }
    switch generator.next() % 7 {
    case 0: return .edited(id, StandupEdit(title: "Title \(step)"))
    case 1: return .edited(id, StandupEdit(duration: .seconds(60 * Int(1 + generator.next() % 30))))
    case 2: return .edited(id, StandupEdit(theme: Theme.allCases[Int(generator.next() % 16)]))
    case 3:
      let attendee = Attendee(id: Attendee.ID(UUID()), name: "Attendee \(step)")
      return .edited(id, StandupEdit(attendees: AttendeesEdit(added: [attendee])))
    case 4:
      guard var renamed = standup.attendees.first else { return nil }
      renamed.name = "Renamed \(step)"
      var after = standup
      after.attendees[id: renamed.id] = renamed
      return .edited(id, StandupEdit(from: standup, to: after))
    case 5:
      let meeting = Meeting(
        id: Meeting.ID(UUID()), date: Date(timeIntervalSince1970: Double(step * 60)),
        transcript: "Meeting \(step)")
      return .meetingRecorded(meeting, standup: standup)
    default:
      guard standup.attendees.count > 1 else { return nil }
      var after = standup
      after.attendees.removeLast()
      return .edited(id, StandupEdit(from: standup, to: after))
    }
  }
}

/// The same numbers for the same seed, every run (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
