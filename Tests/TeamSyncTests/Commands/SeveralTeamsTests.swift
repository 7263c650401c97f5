import Foundation
import Models
import PostgresTestServer
import StorageClient
import TeamSync
import Testing

/// A machine in two teams on one server, driven through the real executable: each standup goes
/// to its own team and to no other, the commands that act on one team ask which when there are
/// several, and leaving one leaves the other as it was (TeamSync's rule 1, `TeamLedger`).
@Suite(.timeLimit(.minutes(2)), .needsPostgreSQL)
struct SeveralTeamsTests {
  @Test func aMachineInTwoTeamsSendsEachStandupOnlyToItsOwn() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      try await server.withAdministrator { connection in
        _ = try await TeamSchema.addMembers(
          team: "design", roles: [server.role("alice"), server.role("carol")], on: connection,
          logger: TestServer.logger)
      }
      let alice = try Home(password: "alice-secret", in: server.folder)
      let url = server.url(for: "alice")
      let imported = try alice.write(standups: [.mock, .engineeringMock])
      #expect(try await standups(["import", imported], alice.environment).status == 0)
      #expect(try await standups(["team", "join", url, "platform"], alice.environment).status == 0)
      #expect(try await standups(["share", "Design"], alice.environment).status == 0)

      let join = try await standups(["team", "join", url, "design"], alice.environment)
      #expect(join.status == 0, "\(join.error)")
      #expect(
        join.standardOutput.contains("It syncs with “platform” too"), "\(join.standardOutput)")
      let unnamed = try await standups(["share", "Engineering"], alice.environment)
      #expect(unnamed.status == 64)
      #expect(unnamed.error.contains("name the team (--team TEAM)"), "\(unnamed.error)")
      let taken = try await standups(["share", "Design", "--team", "design"], alice.environment)
      #expect(taken.status == 64)
      #expect(taken.error.contains("“Design” is shared with “platform”"), "\(taken.error)")
      let share = try await standups(
        ["share", "Engineering", "--team", "design"], alice.environment)
      #expect(share.status == 0, "\(share.error)")
      #expect(share.standardOutput.contains("Shared with “design”: “Engineering”."))

      let sync = try await standups(["sync"], alice.environment)
      #expect(sync.status == 0, "\(sync.error)")
      #expect(sync.standardOutput.contains("“platform”: Pushed"), "\(sync.standardOutput)")
      #expect(sync.standardOutput.contains("“design”: Pushed"), "\(sync.standardOutput)")

      // NB: An edit of each team's standup, then each member's machine.
      try await editBothStandups(on: alice)
      #expect(try await standups(["sync"], alice.environment).status == 0)
      let bob = try await Machine.platform(server, as: "bob")
      try await bob.sync()
      #expect(try await bob.standups().map(\.title) == ["Design, edited"])
      let carol = try await Machine.joined(
        server, as: "carol", password: "carol-secret", team: "design")
      try await carol.sync()
      #expect(try await carol.standups().map(\.title) == ["Engineering, edited"])
      // NB: Not a row of the server's that bob may read names Engineering: nothing of it ever
      // went to "platform".
      let seen = try await server.psql(
        """
        SELECT count(*) FROM standups_team.changes
        WHERE change::text LIKE '%\(Standup.engineeringMock.id.rawValue.uuidString)%'
        """, as: "bob", password: "bob-secret")
      #expect(seen.status == 0, "\(seen.error)")
      #expect(seen.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0")

      let status = try await standups(["team", "status"], alice.environment)
      #expect(status.status == 0, "\(status.error)")
      #expect(status.standardOutput.contains("Team: platform on \(url)"))
      #expect(status.standardOutput.contains("Team: design on \(url)"))

      let unnamedLeave = try await standups(["team", "leave"], alice.environment)
      #expect(unnamedLeave.status == 64)
      let leave = try await standups(["team", "leave", "design"], alice.environment)
      #expect(leave.status == 0, "\(leave.error)")
      #expect(
        leave.standardOutput.contains(
          "no longer syncs with “design”; its 1 standup stays here as a personal one."),
        "\(leave.standardOutput)")
      let after = try await standups(["team", "status"], alice.environment)
      #expect(after.standardOutput.contains("Team: platform"))
      #expect(!after.standardOutput.contains("Team: design"))
      #expect(after.standardOutput.contains("Shared standups: 1"))
    }
  }

  /// Two servers may each have a team called "platform": `share` and `team leave` then ask for
  /// the server too, and act on the one named. Neither reaches a server: nothing waits.
  @Test func aTeamNameOnTwoServersIsToldApartByItsServer() async throws {
    let parent = FileManager.default.temporaryDirectory
      .appendingPathComponent("two-servers-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let alice = try Home(password: "alice-secret", in: parent)
    let imported = try alice.write(standups: [.mock, .engineeringMock])
    #expect(try await standups(["import", imported], alice.environment).status == 0)
    let first = "postgresql://alice@first.example/team"
    let second = "postgresql://alice@second.example/team"
    let database = StandupsDatabase(path: alice.database)
    _ = try await database.load()
    try await database.joinTeam(server: first, team: "platform", machine: UUID())
    let onSecond = try await database.joinTeam(server: second, team: "platform", machine: UUID())

    let unnamed = try await standups(["share", "Design", "--team", "platform"], alice.environment)
    #expect(unnamed.status == 64)
    #expect(unnamed.error.contains("name its server too (--server URL)"), "\(unnamed.error)")
    #expect(try await database.sharedStandupTeams().isEmpty)
    let share = try await standups(
      ["share", "Design", "--team", "platform", "--server", second], alice.environment)
    #expect(share.status == 0, "\(share.error)")
    #expect(try await database.sharedStandupTeams() == [Standup.mock.id: onSecond.id])

    let unnamedLeave = try await standups(["team", "leave", "platform"], alice.environment)
    #expect(unnamedLeave.status == 64)
    let leave = try await standups(
      ["team", "leave", "platform", "--server", first], alice.environment)
    #expect(leave.status == 0, "\(leave.error)")
    #expect(try await database.teamMemberships().map(\.server) == [second])
    #expect(try await database.sharedStandupTeams() == [Standup.mock.id: onSecond.id])
  }

  /// A machine in two teams on two servers, the first of which hangs: `standups sync` does
  /// every team's round at once, so the second team's round is done while the hung server
  /// still holds its own. Once that server answers again, the command ends with both pushed.
  /// One round after the other, the second would wait for the first to give up, and the
  /// command would end saying the first server does not answer.
  @Test func aHungServerHoldsOnlyItsOwnTeamsRound() async throws {
    try await TestServer.withOwnServer { hung in
      try await TestServer.withTestServer { healthy in
        try await hung.makeTeam("platform", members: Machine.platformMembers)
        try await healthy.makeTeam("design", members: Machine.platformMembers)
        let alice = try Home(password: "alice-secret", in: healthy.folder)
        let imported = try alice.write(standups: [.mock, .engineeringMock])
        for arguments in [
          ["import", imported], ["team", "join", hung.url(for: "alice"), "platform"],
          ["team", "join", healthy.url(for: "alice"), "design"],
          ["share", "Design", "--team", "platform"],
          ["share", "Engineering", "--team", "design"],
        ] {
          let done = try await standups(arguments, alice.environment)
          #expect(done.status == 0, "\(arguments): \(done.error)")
        }
        try await editBothStandups(on: alice)

        try hung.signalProcesses(SIGSTOP)
        var isHung = true
        defer { if isHung { try? hung.signalProcesses(SIGCONT) } }
        let sync = try start(["sync"], alice.environment, errorFile: alice.errorFile)
        try await healthy.waitUntil(
          """
          SELECT count(*) FROM standups_team.changes
          WHERE team = 'design' AND change::text LIKE '%Engineering, edited%'
          """, answers: "1\n", gaveUp: { !sync.isRunning },
          else: "the design team's round waited for the hung server's")
        try hung.signalProcesses(SIGCONT)
        isHung = false
        #expect(await endsWithin(seconds: 60, sync))
        let error = (try? String(contentsOfFile: alice.errorFile, encoding: .utf8)) ?? ""
        #expect(sync.terminationStatus == 0, "\(error)")
        let bob = try await Machine.joined(
          hung, as: "bob", password: "bob-secret", team: "platform")
        try await bob.sync()
        #expect(try await bob.standups().map(\.title) == ["Design, edited"])
      }
    }
  }

  /// Renames Design and Engineering on `home`'s machine to "…, edited", as `standups import`
  /// of an edited file does.
  func editBothStandups(on home: Home) async throws {
    var design = Standup.mock
    design.title = "Design, edited"
    var engineering = Standup.engineeringMock
    engineering.title = "Engineering, edited"
    let edits = try home.write(standups: [design, engineering])
    #expect(try await standups(["import", edits], home.environment).status == 0)
  }
}
