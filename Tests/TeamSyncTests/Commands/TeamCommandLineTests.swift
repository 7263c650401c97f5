import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// The `standups` executable's team commands, as a user runs them, against a real server: each
/// machine a HOME of its own, each member a role with its own password.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct TeamCommandLineTests {
  @Test func setUpAddJoinShareAndSyncAsAUserDoesWithTheirExitCodes() async throws {
    try await TestServer.withTestServer { server in
      let owner = server.administratorURL
      let adminPassword = ["PGPASSWORD": server.administratorPassword]
      #expect(try await standups(["team", "setup", owner], adminPassword).status == 0)
      let again = try await standups(["team", "setup", owner], adminPassword)
      #expect(again.status == 0, "\(again.error)")
      try await server.createRole("alice", password: "alice-secret")
      try await server.createRole("bob", password: "bob-secret")
      let members = [server.role("alice"), server.role("bob")]
      #expect(
        try await standups(["team", "add", owner, "platform"] + members, adminPassword).status == 0)
      let nobody = try await standups(
        ["team", "add", owner, "platform", server.role("nobody")], adminPassword)
      #expect(nobody.status == 67)
      #expect(nobody.error.contains("createuser"), "\(nobody.error)")

      let alice = try Home(password: "alice-secret", in: server.folder)
      let bob = try Home(password: "bob-secret", in: server.folder)
      let file = try alice.write(standups: [.mock])
      #expect(try await standups(["import", file], alice.environment).status == 0)
      #expect(try await standups(["share", "--all"], alice.environment).status == 64)
      let join = try await standups(
        ["team", "join", server.url(for: "alice"), "platform"], alice.environment)
      #expect(join.status == 0, "\(join.error)")
      #expect(try await standups(["share", Standup.mock.title], alice.environment).status == 0)
      #expect(try await standups(["sync"], alice.environment).status == 0)
      #expect(
        try await standups(["team", "join", server.url(for: "bob"), "platform"], bob.environment)
          .status == 0)
      let export = try await standups(["export"], bob.environment)
      #expect(export.standardOutput.contains(Standup.mock.title))

      let status = try await standups(["team", "status"], bob.environment)
      #expect(status.status == 0, "\(status.error)")
      #expect(status.standardOutput.contains("Changes waiting: 0"))
      var wrong = bob.environment
      wrong["PGPASSWORD"] = "not-it"
      let refused = try await standups(["team", "status"], wrong)
      #expect(refused.status == 77)
      #expect(refused.error.contains("password authentication failed"), "\(refused.error)")
      #expect(!refused.error.contains("PSQLError"))

      let leave = try await standups(["team", "leave"], bob.environment)
      #expect(leave.status == 0)
      #expect(
        try await standups(["export"], bob.environment).standardOutput.contains(Standup.mock.title))
      #expect(try await standups(["sync"], bob.environment).status == 64)
    }
  }

  /// What one member's rows cost the others' terminals is bounded: a sync after 500 rows no
  /// release would write, and a share of 1,500 standups, each name the first few and count the
  /// rest.
  @Test func syncAndShareNameTheFirstFewAndCountTheRest() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let alice = try Home(password: "alice-secret", in: server.folder)
      let many = (1...1500).map { Standup(id: Standup.ID(UUID()), title: "Standup \($0)") }
      let imported = try await standups(
        ["import", try alice.write(standups: many)], alice.environment)
      #expect(imported.status == 0)
      #expect(
        try await standups(
          ["team", "join", server.url(for: "alice"), "platform"], alice.environment
        )
        .status == 0)
      let share = try await standups(["share", "--all"], alice.environment)
      #expect(share.status == 0, "\(share.error)")
      #expect(share.standardOutput.hasSuffix(", and 1497 more.\n"), "\(share.standardOutput)")
      #expect(share.standardOutput.count < 200)

      let written = try await server.psql(
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        SELECT 'platform', '00000000-0000-0000-0000-0000000000ee', n, 0, '{"unknown": true}'
        FROM generate_series(1, 500) AS n
        """, as: "mallory", password: "mallory-secret")
      #expect(written.status == 0, "\(written.error)")
      let sync = try await standups(["sync"], alice.environment)
      #expect(sync.status == 0, "\(sync.error)")
      let lines = sync.standardOutput.split(separator: "\n")
      #expect(lines.count < 8, "\(sync.standardOutput)")
      #expect(sync.standardOutput.contains("497 more of the team's changes were not applied here."))
    }
  }

  /// Leaving a team sends what waits first, and says what could not be sent.
  @Test func leavingSendsWhatWaitsFirst() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, platform) = try await aliceSharingTheMock(server)

      // NB: The share waits; leaving sends it, and bob gets it.
      let leave = try await standups(["team", "leave"], alice.environment)
      #expect(leave.status == 0, "\(leave.error)")
      #expect(!leave.standardOutput.contains("did not reach"), "\(leave.standardOutput)")
      let bob = try await Machine.platform(server, as: "bob")
      try await bob.sync()
      #expect(try await bob.standups().map(\.id) == [Standup.mock.id])

      // NB: Unreachable, a change waiting is told as staying here.
      #expect(
        try await standups(["team", "join", platform, "platform"], alice.environment).status == 0)
      var edited = Standup.mock
      edited.title = "Design, edited"
      #expect(
        try await standups(["import", try alice.write(standups: [edited])], alice.environment)
          .status
          == 0)
      var offline = alice.environment
      offline["PGPASSWORD"] = "not-it"
      let cut = try await standups(["team", "leave"], offline)
      #expect(cut.status == 0)
      #expect(
        cut.standardOutput.contains(
          "1 change made here did not reach the team: it stays here only."),
        "\(cut.standardOutput)")
    }
  }

  /// Back in a team it left, `join` says what it kept apart: a standup changed here while away
  /// gives way to the team's, and the user hears where theirs went.
  @Test func joiningAgainSaysWhatItKeptApart() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let (alice, platform) = try await aliceSharingTheMock(server)
      #expect(try await standups(["team", "leave"], alice.environment).status == 0)
      var edited = Standup.mock
      edited.title = "Edited while away"
      #expect(
        try await standups(["import", try alice.write(standups: [edited])], alice.environment)
          .status
          == 0)

      let join = try await standups(["team", "join", platform, "platform"], alice.environment)
      #expect(join.status == 0, "\(join.error)")
      #expect(
        join.standardOutput.contains("“Edited while away (kept here)”"), "\(join.standardOutput)")
    }
  }

  @Test func leavingSaysWhatItsLastPullKeptApart() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Machine.platformMembers)
      let bob = try Home(password: "bob-secret", in: server.folder)
      var bobsCopy = Standup.mock
      bobsCopy.title = "Bob's own copy"
      let file = try bob.write(standups: [bobsCopy, .engineeringMock])
      #expect(try await standups(["import", file], bob.environment).status == 0)
      let platform = server.url(for: "bob")
      #expect(
        try await standups(["team", "join", platform, "platform"], bob.environment).status == 0)
      #expect(
        try await standups(["share", Standup.engineeringMock.title], bob.environment).status == 0)
      let (alice, _) = try await aliceSharingTheMock(server)
      #expect(try await standups(["sync"], alice.environment).status == 0)

      let leave = try await standups(["team", "leave"], bob.environment)
      #expect(leave.status == 0, "\(leave.error)")
      #expect(
        leave.standardOutput.contains("“Bob's own copy (kept here)”"), "\(leave.standardOutput)")
      #expect(leave.standardOutput.contains("no longer syncs"), "\(leave.standardOutput)")
    }
  }

  @Test func killedInTheMiddleOfAPushOfAThousandChangesEveryChangeLandsOnce() async throws {
    try await TestServer.withTestServer { server in
      let alice = try await PushingMachine.withAThousandChanges(server)

      try await alice.whileItsPushWaits(atChange: 500, server) { process in
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
      }
      // NB: The waits only spread more kills (before connecting, mid-push, after a commit); no
      // assertion depends on them: any moment must end with each change once.
      for delay in [5, 40, 80, 120, 200] {
        let process = try start(["sync"], alice.home.environment)
        try await Task.sleep(for: .milliseconds(delay))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
      try await alice.finishesWithEveryChangeOnTheServerOnce(server)
    }
  }

  @Test func theServerStoppedInTheMiddleOfAPushLosesNothingAndStoresNothingTwice() async throws {
    try await TestServer.withOwnServer { server in
      let alice = try await PushingMachine.withAThousandChanges(server)

      try await alice.whileItsPushWaits(atChange: 500, server) { process in
        try await server.stopImmediately()
        try #require(
          await endsWithin(seconds: 60, process), "standups sync hung when the server stopped")
        #expect(process.terminationStatus == 69)
      }
      let told = try String(contentsOfFile: alice.home.errorFile, encoding: .utf8)
      #expect(told.hasPrefix("standups: The team's server at 127.0.0.1:"), "\(told)")
      #expect(try await alice.database.waitingTeamChangeCount() == 1001)

      try await server.startAgain()
      try await alice.finishesWithEveryChangeOnTheServerOnce(server)
    }
  }

  @Test func setUpWaitingOnAnotherWhenTheServerStopsEndsWithASentence() async throws {
    try await TestServer.withOwnServer { server in
      let home = try Home(password: server.administratorPassword, in: server.folder)
      // NB: Another `team setup` holds the schema's lock, so this one waits inside its
      // transaction when the server stops.
      try await server.withAdministratorWhileStopping { connection in
        try await connection.query(
          "SELECT pg_advisory_lock(\(TeamSchema.setUpLock))", logger: TestServer.logger)
        let process = try start(
          ["team", "setup", server.administratorURL], home.environment, errorFile: home.errorFile)
        try await server.waitUntil(
          """
          SELECT count(*) FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'
          """, answers: "1\n", gaveUp: { !process.isRunning },
          else: "team setup never waited on the lock")
        try await server.stopImmediately()
        try #require(
          await endsWithin(seconds: 60, process), "team setup hung when the server stopped")
        #expect(process.terminationStatus == 69)
      }
      let told = try String(contentsOfFile: home.errorFile, encoding: .utf8)
      #expect(told.hasPrefix("standups: The team's server at 127.0.0.1:"), "\(told)")
    }
  }

  @Test func aServerThatIsNotPostgreSQLGetsASentenceAndNothingLocalIsTouched() async throws {
    let listener = try notPostgres()
    defer { listener.stop() }
    let parent = FileManager.default.temporaryDirectory
      .appendingPathComponent("teamsync-\(UUID().uuidString.prefix(8))").path
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let home = try Home(password: "whatever", in: parent)
    let file = try home.write(standups: [.mock])
    #expect(try await standups(["import", file], home.environment).status == 0)
    let join = try await standups(
      ["team", "join", "postgresql://alice@127.0.0.1:\(listener.port)/db?sslmode=disable", "t"],
      home.environment)
    #expect(join.status == 69, "\(join.error)")
    // NB: What the client makes of the answer is the client's (an answer cut short, or not
    // PostgreSQL's): a sentence, not a type or a system call.
    #expect(
      join.error.hasPrefix(
        "standups: The team's server at 127.0.0.1:\(listener.port)/db cannot be reached: "),
      "\(join.error)")
    for jargon in ["Error(", "PSQL", "errno", "descriptor", "Connection("] {
      #expect(!join.error.contains(jargon), "\(join.error)")
    }
    let status = try await standups(["team", "status"], home.environment)
    #expect(status.status == 64, "\(status.error)")
    #expect(
      try await standups(["export"], home.environment).standardOutput.contains(Standup.mock.title))
  }

  /// Alice's HOME, joined to "platform" with the mock imported and shared (not pushed yet), and
  /// the URL she joined with.
  private func aliceSharingTheMock(_ server: TestServer) async throws -> (Home, String) {
    let alice = try Home(password: "alice-secret", in: server.folder)
    #expect(
      try await standups(["import", try alice.write(standups: [.mock])], alice.environment).status
        == 0)
    let platform = server.url(for: "alice")
    #expect(
      try await standups(["team", "join", platform, "platform"], alice.environment).status == 0)
    #expect(try await standups(["share", "--all"], alice.environment).status == 0)
    return (alice, platform)
  }
}

/// alice's machine, a member of "platform", with 1,001 changes waiting to be pushed: a standup
/// shared and edited 1,000 times.
private struct PushingMachine {
  let home: Home
  let database: StandupsDatabase
  let machine: UUID

  static func withAThousandChanges(_ server: TestServer) async throws -> PushingMachine {
    try await server.makeTeam("platform", members: ["alice": "alice-secret"])
    let home = try Home(password: "alice-secret", in: server.folder)
    let database = StandupsDatabase(path: home.database)
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    let machine = UUID()
    try await database.joinTeam(
      server: server.url(for: "alice"), team: "platform", machine: machine)
    try await database.share([Standup.mock.id])
    for minutes in 0..<1000 {
      try await database.apply(
        .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * (minutes % 60 + 1)))))
    }
    #expect(try await database.waitingTeamChangeCount() == 1001)
    return PushingMachine(home: home, database: database, machine: machine)
  }

  /// Runs `body` with a `standups sync` of this machine's in the middle of its push: the changes
  /// before change `number` inserted, not committed, and the insert of `number` waiting.
  func whileItsPushWaits(
    atChange number: Int64, _ server: TestServer,
    _ body: (Process) async throws -> Void
  ) async throws {
    try await server.holdingPushes(of: machine, as: "alice", in: "platform", atChange: number) {
      hold in
      let process = try start(["sync"], home.environment, errorFile: home.errorFile)
      try await hold.waitUntilAPushWaits(as: "alice", gaveUp: { !process.isRunning })
      try await body(process)
    }
  }

  /// One more `standups sync`, which must end with every change on the server exactly once and
  /// none waiting.
  func finishesWithEveryChangeOnTheServerOnce(_ server: TestServer) async throws {
    let finish = try await standups(["sync"], home.environment)
    #expect(finish.status == 0, "\(finish.error)")
    #expect(
      try await server.administer(
        "SELECT count(*), count(DISTINCT machine_sequence) FROM standups_team.changes")
        == "1001|1001\n")
    #expect(try await database.waitingTeamChangeCount() == 0)
  }
}

/// A loopback port that answers like a web server, not PostgreSQL.
private func notPostgres() throws -> LoopbackPort {
  try LoopbackPort { client, _ in
    // NB: What the client sent is read before the answer: closing with unread bytes would
    // reset the connection instead of ending it after the answer.
    var buffer = [UInt8](repeating: 0, count: 4096)
    _ = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
    let answer = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)
    _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    return false
  }
}
