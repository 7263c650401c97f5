import Foundation
import GRDB
import Models

// The teams this machine is in: what a join starts again, what leaving empties, and which
// standups each shares. A standup is shared with one team (`sharedStandup`'s key); the tables
// kept by standup follow it.

extension TeamLedger {
  /// The tables that say where this machine is in a team's order: the last change applied of
  /// each machine's and to each standup, and what a restore left to send again. A join again
  /// of the same team (a new machine ID, from the start of the order) starts them again; what
  /// is shared and what waits stays.
  static let placeTables = ["teamMachineSeen", "teamStandupLastChange", "teamStandupToResend"]

  /// The other tables of a team's here kept by standup (Schema.swift says what each holds):
  /// leaving a team empties these and ``placeTables`` of its standups, which stay as personal
  /// ones. The values the team replaced (`replacedValue`) stay, to be put back or away.
  static let standupTables = [
    "teamDeletionQuestion", "teamFieldOwner", "teamOwnChange", "teamDeletedBy",
  ]

  /// Empties `tables` of what they hold for `team`: by membership, or by the team's standups.
  static func empty(_ tables: [String], of team: TeamMembership.ID, _ db: Database) throws {
    for table in tables {
      let whose =
        table == "teamMachineSeen"
        ? "membership = ?"
        : "standupId IN (SELECT standupId FROM sharedStandup WHERE membership = ?)"
      try db.execute(sql: "DELETE FROM \(table) WHERE \(whose)", arguments: [team.rawValue])
    }
  }

  /// Makes standups `team`'s, and keeps each, whole, for it: returns the IDs that were not
  /// shared before. A standup shared with another team stays that team's.
  static func share(_ standups: [Standup], with team: TeamMembership.ID, _ db: Database) throws
    -> [Standup.ID]
  {
    guard try TeamMembership.fetch(team, db) != nil else { return [] }
    var shared: [Standup.ID] = []
    for standup in standups {
      try noteShared(standup.id, in: team, db)
      guard db.changesCount > 0 else { continue }
      shared.append(standup.id)
      try addToOutbox(.added([standup]), db)
    }
    return shared
  }

  /// The IDs of `team`'s shared standups this machine holds: a shared standup deleted here
  /// stays marked (its deletion went to the team as a shared one's), and is not counted.
  static func sharedIDs(in team: TeamMembership.ID, _ db: Database) throws -> Set<Standup.ID> {
    Set(try sharedTeams(db).filter { $0.value == team }.keys)
  }

  /// The team of each shared standup this machine holds.
  static func sharedTeams(_ db: Database) throws -> [Standup.ID: TeamMembership.ID] {
    var teams: [Standup.ID: TeamMembership.ID] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT s.standupId, s.membership FROM sharedStandup AS s
        JOIN standup AS t ON t.id = s.standupId
        """)
    {
      if let uuid = UUID(uuidString: row["standupId"]) {
        teams[Standup.ID(uuid)] = TeamMembership.ID(row["membership"] as Int64)
      }
    }
    return teams
  }
}
