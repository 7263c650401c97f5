import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// The team's server restored from an older backup (`pg_dump`, then `pg_restore`): it has
/// forgotten changes its members' machines applied. Each such machine notices at its next round,
/// pulls what the server holds now, sends its shared standups again, and deletes nothing.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct RestoredServerTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret"]

  @Test func machinesThatSawMoreThanARestoredServerSendItWhatItLacksAndLoseNothing() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      let bob = try await Machine.platform(server, as: "bob")
      try await alice.shareTheMock()
      try await alice.database.apply(.added([.productMock]))
      try await alice.database.share([Standup.productMock.id])
      try await alice.sync()
      try await bob.sync()
      let backup = try await server.backUp()

      // NB: What the backup lacks: a new title, a second standup, and a theme the server
      // committed but alice's machine was cut off before pulling back. The third standup's last
      // change is in the backup: it is not sent again.
      try await alice.database.apply(
        .edited(Standup.mock.id, StandupEdit(title: "After the backup")))
      try await alice.database.apply(.added([.engineeringMock]))
      try await alice.database.share([Standup.engineeringMock.id])
      try await alice.sync()
      try await bob.sync()
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .lavender)))
      try await alice.pushWithoutPulling()
      let alicesBefore = try await alice.standups()

      try await server.restore(from: backup)
      try await bob.database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(1200))))
      #expect(try await bob.sync().report.resent == 2)
      #expect(try await alice.sync().report.resent == 2)
      try await bob.sync()

      var expected = alicesBefore
      expected[id: Standup.mock.id]?.duration = .seconds(1200)
      #expect(try await alice.standups() == expected)
      #expect(try await bob.standups() == expected)
      let newcomer = try await Machine.platform(server, as: "bob")
      try await newcomer.sync()
      #expect(try await newcomer.standups() == expected)

      // NB: Rounds after go on as before: nothing is sent again, and alice's change the server
      // had forgotten no longer waits to be applied over the team's newer ones.
      try await bob.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .orange)))
      try await bob.sync()
      #expect(try await alice.sync().report.resent == 0)
      #expect(try await alice.standups()[id: Standup.mock.id]?.theme == .orange)
    }
  }

  @Test func aChangePushedButNotYetPulledBackWhenTheServerWasRestoredIsPushedAgain()
    async throws
  {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      try await alice.shareTheMock()
      let backup = try await server.backUp()
      // NB: Alice's machine has pulled nothing the backup lacks: only its push is lost.
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(theme: .lavender)))
      try await alice.pushWithoutPulling()

      try await server.restore(from: backup)
      #expect(try await alice.sync().pushed == 1)
      let newcomer = try await Machine.platform(server, as: "bob")
      try await newcomer.sync()
      #expect(try await newcomer.standups()[id: Standup.mock.id]?.theme == .lavender)
      #expect(try await alice.standups() == newcomer.standups())
    }
  }

  @Test func aMachineThatOnlyPulledNoticesOnceOthersHaveWrittenPastWhereItWas() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)
      let backup = try await server.backUp()
      for title in ["One", "Two"] {
        try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: title)))
        try await alice.sync()
      }
      try await bob.sync()

      // NB: Restored, and then alice's machine (which shares nothing now) joins again, and its
      // three changes take the numbers bob's machine had seen as other changes.
      try await server.restore(from: backup)
      try await alice.database.leaveTeam()
      try await alice.database.joinTeam(
        server: server.url(for: "alice"), team: "platform", machine: UUID())
      try await alice.sync()
      for attendee in ["Ann", "Ben", "Cid"] {
        try await alice.database.apply(
          .edited(
            Standup.mock.id,
            StandupEdit(attendees: AttendeesEdit(added: [Attendee(id: .init(), name: attendee)]))))
      }
      try await alice.database.share([Standup.mock.id])
      try await alice.sync()

      #expect(try await bob.sync().report.resent == 1)
      try await alice.sync()
      let bobs = try #require(try await bob.standups()[id: Standup.mock.id])
      #expect(bobs.title == "Two")
      #expect(bobs.attendees.suffix(3).map(\.name) == ["Ann", "Ben", "Cid"])
      #expect(try await alice.standups()[id: Standup.mock.id] == bobs)
    }
  }
}

extension Machine {
  /// Pushes the changes waiting here, and stops before pulling, as a machine cut off then would:
  /// the server has them, and this machine keeps them until they come back.
  func pushWithoutPulling() async throws {
    let membership = try #require(try await database.teamMembership())
    let waiting = try await database.waitingTeamChanges(limit: 100)
    let last = try #require(waiting.last)
    let description = try ConnectionDescription(url: membership.server, environment: environment)
    let password = try description.password(environment: environment)
    try await description.withConnection(password: password, logger: TestServer.logger) {
      connection in
      try await TeamServer.push(
        waiting, team: membership.team,
        machine: MemberMachine(madeBy: description.user, machine: membership.machine),
        on: connection, logger: TestServer.logger)
    }
    try await database.teamChangesPushed(through: last.machineSequence)
  }
}
