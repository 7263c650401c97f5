import Foundation
import IdentifiedCollections
import Models
import PostgresTestServer
import StorageClient
import TeamSync

/// One member's machine for a test: its own database in its own folder, joined to a team on a
/// ``TestServer`` as a role whose password it passes as `PGPASSWORD`. A machine in two teams is
/// two of these on one database, each syncing its own team (``also(_:as:)``).
struct Machine {
  let database: StandupsDatabase
  let environment: [String: String]
  /// The team this one syncs with.
  var team: String

  /// A machine with an empty database that has joined `team` as `role`, its folder inside the
  /// server's.
  static func joined(
    _ server: TestServer, as role: String, password: String, team: String,
    over link: TestNetwork.Link? = nil
  ) async throws -> Machine {
    // NB: Inside the server's folder, which stopping the server removes.
    let folder = URL(fileURLWithPath: server.folder)
      .appendingPathComponent("machine-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let database = StandupsDatabase(path: folder.appendingPathComponent("standups.sqlite").path)
    _ = try await database.load()
    try await database.joinTeam(
      server: server.url(for: role, over: link), team: team, machine: UUID())
    return Machine(
      database: database,
      environment: ["PGPASSWORD": password, "HOME": folder.path], team: team)
  }

  /// The same machine joined to `team` too, as `role`, beside the team it is in.
  func also(_ team: String, as role: String, on server: TestServer) async throws -> Machine {
    try await database.joinTeam(server: server.url(for: role), team: team, machine: UUID())
    var other = self
    other.team = team
    return other
  }

  /// Its membership of its team, or `nil` once it has left it.
  func membership() async throws -> TeamMembership? {
    try await database.teamMemberships().first { $0.team == team }
  }

  /// Its engine.
  func engine() async throws -> TeamSyncEngine {
    guard let membership = try await membership() else {
      throw TestServerError("the machine is not in \(team)")
    }
    return TeamSyncEngine(database: database, membership: membership, environment: environment)
  }

  /// One round with the server.
  @discardableResult
  func sync() async throws -> TeamSyncEngine.Round {
    try await engine().syncOnce()
  }

  /// The standups its database holds.
  func standups() async throws -> IdentifiedArrayOf<Standup> {
    try await database.readStandups()
  }
}

extension Machine {
  /// A machine of member `name`, whose password is "`name`-secret", joined to "platform" (over
  /// `link`, when the server has a network of its own).
  /// Alice, bob, carol and mallory, each with the password ``platform(_:as:over:)`` signs in
  /// with: the members of "platform" for suites that need more than two.
  static let platformMembers = [
    "alice": "alice-secret", "bob": "bob-secret", "carol": "carol-secret",
    "mallory": "mallory-secret",
  ]

  static func platform(
    _ server: TestServer, as name: String, over link: TestNetwork.Link? = nil
  ) async throws -> Machine {
    try await joined(server, as: name, password: "\(name)-secret", team: "platform", over: link)
  }

  /// Alice's and bob's machines on "platform" (alice's over `links[0]` and bob's over
  /// `links[1]`, when given), the mock shared by alice and pulled by bob.
  static func aliceAndBobSharingTheMock(
    _ server: TestServer, over links: [TestNetwork.Link] = []
  ) async throws -> (alice: Machine, bob: Machine) {
    let alice = try await platform(server, as: "alice", over: links.first)
    let bob = try await platform(server, as: "bob", over: links.dropFirst().first)
    try await alice.shareTheMock()
    try await bob.sync()
    return (alice, bob)
  }

  /// Adds `Standup.mock`, shares it with the team and pushes it.
  func shareTheMock() async throws {
    try await database.apply(.added([.mock]))
    try await database.share([Standup.mock.id])
    try await sync()
  }
}

/// `change` as the JSON a machine pushes: what a test writes through psql as a member would.
func encoded(_ change: StandupsChange) throws -> String {
  String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
}
