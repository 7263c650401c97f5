import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import PropertyBased
import StorageClient
import Synchronization
import Testing

@testable import TeamSync

/// A team's life, at random: three members' machines edit every field of two shared standups
/// (title, length, theme, an attendee's name, the attendees' order, an attendee removed or added),
/// put back values they were told of, record meetings, delete standups, answer the question a
/// deletion asks (keep it or let it go), sync now and then and go without syncing for a while,
/// leave the team and join it again; the schema's owner prunes the history, removes members and
/// lets them back in. A fourth role, dave, is in another team on the same server, and alice's
/// machine is in it too, editing its standup beside the team's, leaving it and joining it again. At
/// the quiet point after every run, the sync's rules hold (TeamSync's article states them):
///
/// - every machine holds the server's order applied, whatever its user answered;
/// - no meeting recorded is lost, but with a standup the team let go: it is the team's, or, when
///   it never reached the team, it stays on the machine that recorded it;
/// - a value of a machine's that another member's change replaced without having seen it is in
///   that machine's told list, with who replaced it;
/// - nothing of the team's reaches a role outside it: neither dave's nor a removed member's role
///   can read a row of it, and no meeting recorded after a member's removal reaches their machine;
/// - a standup is in one team: no row of dave's team names the team's standups, and nothing of
///   dave's team reaches bob's or carol's machine, however alice's machine joins, leaves, edits
///   and syncs; dave's team ends with alice's machine and dave's holding the same standup.
@Suite(.serialized, .timeLimit(.minutes(10)), .needsPostgreSQL)
struct TeamLifeTests {
  enum Step: Equatable, Sendable {
    case edit(machine: Int, standup: Int, field: Int, value: Int)
    case putBack(machine: Int)
    case recordMeeting(machine: Int, standup: Int)
    case delete(machine: Int, standup: Int)
    case answer(machine: Int, keep: Bool)
    case sync(machine: Int)
    case goOffline(machine: Int)
    case comeBack(machine: Int)
    case leave(machine: Int)
    case rejoin(machine: Int)
    case remove(machine: Int)
    case readmit(machine: Int)
    case prune
    /// In dave's team, which alice's machine is in too: alice (or dave) renames its standup or
    /// records a meeting of it (`value` 2 or 3), and syncs that team.
    case elsewhere(byAlice: Bool, value: Int)
    /// Alice's machine joins dave's team again (`true`) or leaves it.
    case aliceInElsewhere(Bool)
  }

  static let steps = Gen.frequency(
    (
      8,
      zip(Gen.int(in: 0...2), Gen.int(in: 0...1), Gen.int(in: 0...6), Gen.int(in: 0...3))
        .map { Step.edit(machine: $0, standup: $1, field: $2, value: $3) }
    ),
    (1, Gen.int(in: 0...2).map(Step.putBack)),
    (2, zip(Gen.int(in: 0...2), Gen.int(in: 0...1)).map(Step.recordMeeting)),
    (1, zip(Gen.int(in: 0...2), Gen.int(in: 0...1)).map(Step.delete)),
    (2, zip(Gen.int(in: 0...2), Gen.bool).map(Step.answer)),
    (6, Gen.int(in: 0...2).map(Step.sync)),
    (1, Gen.int(in: 0...2).map(Step.goOffline)),
    (1, Gen.int(in: 0...2).map(Step.comeBack)),
    (1, Gen.int(in: 0...2).map(Step.leave)),
    (2, Gen.int(in: 0...2).map(Step.rejoin)),
    (1, Gen.int(in: 0...2).map(Step.remove)),
    (1, Gen.int(in: 0...2).map(Step.readmit)),
    (1, Gen.always(Step.prune)),
    (2, zip(Gen.bool, Gen.int(in: 0...3)).map(Step.elsewhere)),
    (1, Gen.bool.map(Step.aliceInElsewhere))
  )
  .array(of: 1...25)

  static let names = ["alice", "bob", "carol"]
  static let outsider = "dave"

  @Test func aTeamsLifeKeepsTheSyncsRules() async throws {
    let runs = Int(ProcessInfo.processInfo.environment["STANDUPS_TEAM_LIFE_RUNS"] ?? "") ?? 6
    try await TestServer.withTestServer { server in
      for name in Self.names + [Self.outsider] {
        try await server.createRole(name, password: "\(name)-secret")
      }
      try await server.withAdministrator { connection in
        try await TeamSchema.setUp(on: connection, logger: TestServer.logger)
      }
      let teams = Mutex(0)
      await propertyCheck(count: runs, input: Self.steps) { steps in
        do {
          let team = teams.withLock { count in
            count += 1
            return "life\(count)"
          }
          var life = Life(steps: steps, team: team, server: server)
          try await life.live()
        } catch {
          Issue.record(error)
        }
      }
    }
  }
}
