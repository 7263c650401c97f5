import Foundation
import Models
import PostgresTestServer
import StorageClient
import Testing

@testable import TeamSync

/// A member who works against the team through psql, with SQL written by hand: what the server
/// refuses them, and what the others' machines make of the rows it cannot refuse.
@Suite(.serialized, .timeLimit(.minutes(5)), .needsPostgreSQL)
struct HostileMemberTests {
  static let members = ["alice": "alice-secret", "bob": "bob-secret", "mallory": "mallory-secret"]

  @Test func aMemberCannotAddThemselfOrAnyoneToATeam() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      try await server.makeOutsider("eve", password: "eve-secret")
      let mallory = server.role("mallory")
      try await server.expectRefused(
        [
          "INSERT INTO standups_team.team_members (team, role) VALUES ('elsewhere', '\(mallory)')",
          "INSERT INTO standups_team.team_members (team, role) VALUES ('platform', '\(server.role("eve"))')",
          "INSERT INTO standups_team.teams (name) VALUES ('mallory''s own')",
          "SELECT standups_team.add_member('elsewhere', '\(mallory)')",
        ], as: "mallory", password: "mallory-secret")
      #expect(
        try await server.administer(
          "SELECT team, role FROM standups_team.team_members WHERE role = '\(mallory)'")
          == "platform|\(mallory)\n")
    }
  }

  /// Rows a member may write but no release would: every other machine skips each one, says
  /// which and whose, and goes on with everything after it.
  @Test func rowsNoReleaseWouldWriteAreSkippedByNameAndTheRestIsApplied() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let (alice, bob) = try await Machine.aliceAndBobSharingTheMock(server)

      let nowhere = Standup.ID(UUID())
      let rows = [
        #"{"renamedTeam": {"to": "mallory's"}}"#,
        try encoded(.edited(Standup.mock.id, StandupEdit(duration: .seconds(-5)))),
        try encoded(.edited(nowhere, StandupEdit(title: "Nowhere"))),
        "[]",
      ]
      for (index, row) in rows.enumerated() {
        let written = try await server.psql(
          """
          INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
          VALUES ('platform', '00000000-0000-0000-0000-0000000000ee', \(index + 1), 0,
                  '\(row.replacingOccurrences(of: "'", with: "''"))')
          """, as: "mallory", password: "mallory-secret")
        #expect(written.status == 0, "\(written.error)")
      }
      try await alice.database.apply(.edited(Standup.mock.id, StandupEdit(title: "After")))
      try await alice.sync()

      let round = try await bob.sync()
      let mallory = server.role("mallory")
      #expect(round.report.skipped.map(\.sequence) == [2, 3, 5])
      #expect(round.report.skipped.allSatisfy { $0.madeBy == mallory })
      let sentences = round.report.skipped.map(\.sentence)
      #expect(
        sentences.first
          == "The team's change 2, by \(mallory), was not applied here: it is not a change this release can read."
      )
      #expect(sentences[1].contains(StandupRules.durationRule), "\(sentences[1])")
      let standups = try await bob.standups()
      #expect(standups.count == 1)
      #expect(standups.first?.title == "After")
      #expect(standups.first?.duration == Standup.mock.duration)
      #expect(try await bob.database.teamMembership()?.lastSequence == 6)
      #expect(try await bob.sync().report.skipped.isEmpty)
    }
  }

  /// A change far larger than any release writes is not read, so a member cannot make every
  /// machine pull gigabytes; and a pull reads a window's changes only up to a budget of bytes,
  /// going on from where it stopped.
  @Test func aChangeTooLargeIsNotReadAndAPullStopsAtItsBudget() async throws {
    try await TestServer.withTestServer { server in
      try await server.makeTeam("platform", members: Self.members)
      let alice = try await Machine.platform(server, as: "alice")
      let bob = try await Machine.platform(server, as: "bob")
      try await alice.shareTheMock()

      let huge = try encoded(.edited(Standup.mock.id, StandupEdit(title: "HUGE")))
      let written = try await server.psql(
        """
        INSERT INTO standups_team.changes (team, machine, machine_sequence, based_on, change)
        VALUES ('platform', '00000000-0000-0000-0000-0000000000ee', 1, 0,
                replace('\(huge)', 'HUGE', repeat('x', 10 * 1024 * 1024))::jsonb)
        """, as: "mallory", password: "mallory-secret")
      #expect(written.status == 0, "\(written.error)")
      for minutes in 1...8 {
        try await alice.database.apply(
          .edited(Standup.mock.id, StandupEdit(duration: .seconds(60 * minutes))))
      }
      try await alice.sync()

      let round = try await bob.sync()
      #expect(round.report.skipped.map(\.sequence) == [2])
      #expect(
        round.report.skipped.first?.reason == "it holds 10.0 MB, more than a change may",
        "\(round.report.skipped)")
      #expect(try await bob.standups().first?.title == Standup.mock.title)
      #expect(try await bob.standups().first?.duration == .seconds(8 * 60))

      let description = try ConnectionDescription(url: server.url(for: "bob"), environment: [:])
      let windows = try await description.withConnection(
        password: "bob-secret", logger: TestServer.logger
      ) { connection in
        var windows: [[Int64]] = []
        var after: Int64 = 2
        while after < 10 {
          let window = try await TeamServer.pull(
            team: "platform", after: after, budget: 300, on: connection,
            logger: TestServer.logger)
          windows.append(window.changes.map(\.sequence))
          after = window.through
        }
        return windows
      }
      #expect(windows.count > 1, "\(windows)")
      #expect(windows.flatMap { $0 } == Array(3...10), "\(windows)")
    }
  }
}
