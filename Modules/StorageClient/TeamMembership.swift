public import Foundation
import GRDB
public import Tagged

/// A team this machine syncs shared standups with: kept in its database from `standups team
/// join` until `standups team leave`. A machine may be in several teams, on one server or
/// several; each of its shared standups is in one of them.
///
/// It holds no password: the engine reads one from `PGPASSWORD` or `~/.pgpass` at each
/// connection, as libpq does.
public struct TeamMembership: Equatable, Identifiable, Sendable {
  /// The membership's number in this machine's database: what its shared standups and waiting
  /// changes are kept under.
  public typealias ID = Tagged<TeamMembership, Int64>

  /// The membership's number here.
  public var id: ID
  /// The server's libpq URL, as given to `join`.
  public var server: String
  /// The team's name on the server.
  public var team: String
  /// This machine's ID on the server: with each change's number on this machine, it lets the
  /// server refuse a change it already has.
  public var machine: UUID
  /// The last change of the server's order this machine has applied.
  public var lastSequence: Int64
  /// When this machine last finished pulling from the server.
  public var lastSyncedAt: Date?
  /// Whether the server has forgotten changes this machine had applied (it was restored from an
  /// older backup): once this machine has pulled the server's order again, it sends every
  /// shared standup again.
  public var resharePending: Bool

  /// A membership, as `join` starts it.
  public init(
    id: ID, server: String, team: String, machine: UUID, lastSequence: Int64 = 0,
    lastSyncedAt: Date? = nil, resharePending: Bool = false
  ) {
    self.id = id
    self.server = server
    self.team = team
    self.machine = machine
    self.lastSequence = lastSequence
    self.lastSyncedAt = lastSyncedAt
    self.resharePending = resharePending
  }

  /// How people tell this team apart among `memberships`: its name, or, when another team of
  /// theirs on another server has the same name, its name and its server.
  ///
  /// Two servers may each have a team called "platform"; the app's buttons, its list and its
  /// status line then need more than the name to say which one they mean.
  ///
  /// ```swift
  /// membership.name(among: try await database.teamMemberships())  // "platform"
  /// ```
  public func name(among memberships: [TeamMembership]) -> String {
    let isNameShared = memberships.contains { $0.team == team && $0.id != id }
    return isNameShared ? "\(team) on \(server)" : team
  }

  /// Every team this machine has joined, in the order it joined them.
  static func fetchAll(_ db: Database) throws -> [TeamMembership] {
    try Row.fetchAll(db, sql: "SELECT * FROM teamMembership ORDER BY id").compactMap(Self.init)
  }

  /// The membership numbered `id`, or `nil` when this machine has left that team.
  static func fetch(_ id: ID, _ db: Database) throws -> TeamMembership? {
    try Row.fetchOne(db, sql: "SELECT * FROM teamMembership WHERE id = ?", arguments: [id.rawValue])
      .flatMap(Self.init)
  }

  private init?(_ row: Row) {
    guard let machine = UUID(uuidString: row["machine"]) else { return nil }
    let syncedAt: Double? = row["lastSyncedAt"]
    self.init(
      id: ID(row["id"] as Int64), server: row["server"], team: row["team"], machine: machine,
      lastSequence: row["lastSequence"],
      lastSyncedAt: syncedAt.map(Date.init(timeIntervalSinceReferenceDate:)),
      resharePending: row["resharePending"])
  }
}

/// A machine whose changes reach this one, as the server names it: the role that made the
/// changes and the machine's ID. This machine keeps the last change of each it has applied.
public struct MemberMachine: Hashable, Sendable {
  /// The role that made the changes.
  public var madeBy: String
  /// The machine's ID.
  public var machine: UUID

  /// The machine `machine`, as role `madeBy` uses it.
  public init(madeBy: String, machine: UUID) {
    self.madeBy = madeBy
    self.machine = machine
  }
}

/// A change as the team's server knows it, wherever it is in the order: the machine that made
/// it and its number there. A server restored from an older backup may have lost it.
public struct TeamChangeOrigin: Hashable, Sendable {
  /// The machine that made it, and the member it was made by.
  public var memberMachine: MemberMachine
  /// Its number on that machine.
  public var machineSequence: Int64

  /// The change `machineSequence` of `memberMachine`.
  public init(memberMachine: MemberMachine, machineSequence: Int64) {
    self.memberMachine = memberMachine
    self.machineSequence = machineSequence
  }
}
