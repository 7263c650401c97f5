public import Foundation
import GRDB

/// The team this machine syncs its shared standups with: kept in its database from
/// `standups team join` until `standups team leave`.
///
/// It holds no password: the engine reads one from `PGPASSWORD` or `~/.pgpass` at each
/// connection, as libpq does.
public struct TeamMembership: Equatable, Sendable {
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
    server: String, team: String, machine: UUID, lastSequence: Int64 = 0,
    lastSyncedAt: Date? = nil, resharePending: Bool = false
  ) {
    self.server = server
    self.team = team
    self.machine = machine
    self.lastSequence = lastSequence
    self.lastSyncedAt = lastSyncedAt
    self.resharePending = resharePending
  }

  static func fetch(_ db: Database) throws -> TeamMembership? {
    guard let row = try Row.fetchOne(db, sql: "SELECT * FROM teamMembership") else { return nil }
    guard let machine = UUID(uuidString: row["machine"]) else { return nil }
    let syncedAt: Double? = row["lastSyncedAt"]
    return TeamMembership(
      server: row["server"], team: row["team"], machine: machine,
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
