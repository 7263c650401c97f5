import Foundation
import Models
import PostgresNIO
import StorageClient

// What a round asks the server only when it recovers (TeamSyncEngine+Recovery.swift): which of
// this machine's changes a restored server still has, and the compacted state a machine starts
// from when the history it needs was pruned; and the team's passing of a number missing for
// longer than a push takes (TeamSyncEngine+Gaps.swift).

extension TeamServer {
  /// The number, on `machine`, of the newest of its changes the server has, in its history or
  /// folded into its compacted state; 0 when none. A machine pushes its changes in the order it
  /// numbered them, so the server has all those before it too.
  static func newestChange(
    of machine: MemberMachine, team: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> Int64 {
    try await newestChanges(of: [machine], team: team, on: connection, logger: logger)[
      machine, default: 0]
  }

  /// The number, on each of `machines`, of the newest of its changes the server has, in its
  /// history or folded into its compacted state; a machine it has none of is left out. One
  /// statement however many. A machine is a role's: rows another member writes under its ID
  /// are that member's.
  static func newestChanges(
    of machines: [MemberMachine], team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> [MemberMachine: Int64] {
    guard !machines.isEmpty else { return [:] }
    let rows = try await connection.allRows(
      """
      SELECT asked.made_by::text, asked.machine, GREATEST(
        (SELECT max(c.machine_sequence) FROM standups_team.changes AS c
         WHERE c.team = \(team) AND c.made_by = asked.made_by AND c.machine = asked.machine),
        (SELECT m.machine_sequence FROM standups_team.compacted_machines AS m
         WHERE m.team = \(team) AND m.made_by = asked.made_by AND m.machine = asked.machine),
        0)
      FROM unnest(\(machines.map(\.madeBy))::name[], \(machines.map(\.machine))::uuid[])
        AS asked (made_by, machine)
      """, logger: logger)
    var known: [MemberMachine: Int64] = [:]
    for (madeBy, machine, newest) in try rows.decode((String, UUID, Int64).self)
    where newest > 0 {
      known[MemberMachine(madeBy: madeBy, machine: machine)] = newest
    }
    return known
  }

  /// Which of `changes` the server has, in its history or folded into its compacted state, in
  /// one statement however many.
  static func changesStillHeld(
    _ changes: [TeamChangeOrigin], team: String, on connection: PostgresConnection,
    logger: Logger
  ) async throws -> Set<TeamChangeOrigin> {
    guard !changes.isEmpty else { return [] }
    let rows = try await connection.allRows(
      """
      SELECT asked.made_by, asked.machine, asked.machine_sequence
      FROM unnest(
        \(changes.map(\.memberMachine.madeBy))::text[], \(changes.map(\.memberMachine.machine))::uuid[],
        \(changes.map(\.machineSequence))::bigint[]
      ) AS asked (made_by, machine, machine_sequence)
      WHERE EXISTS (
        SELECT 1 FROM standups_team.changes AS c
        WHERE c.team = \(team) AND c.made_by::text = asked.made_by AND c.machine = asked.machine
          AND c.machine_sequence = asked.machine_sequence
      ) OR EXISTS (
        SELECT 1 FROM standups_team.compacted_machines AS m
        WHERE m.team = \(team) AND m.made_by::text = asked.made_by AND m.machine = asked.machine
          AND m.machine_sequence >= asked.machine_sequence
      )
      """, logger: logger)
    var kept = Set<TeamChangeOrigin>()
    for (madeBy, machine, machineSequence) in try rows.decode((String, UUID, Int64).self) {
      kept.insert(
        TeamChangeOrigin(
          memberMachine: MemberMachine(madeBy: madeBy, machine: machine),
          machineSequence: machineSequence))
    }
    return kept
  }

  /// The team's compacted state: its standups as its changes through a number left them, and
  /// the last change of each machine folded in. Read in one statement, so a prune committing
  /// meanwhile is seen whole or not at all; `nil` when the team's history was never compacted.
  static func compactedState(
    team: String, on connection: PostgresConnection, logger: Logger
  ) async throws -> CompactedTeamState? {
    let rows = try await connection.allRows(
      """
      SELECT s.through, s.standups::text, m.roles, m.machines, m.sequences
      FROM standups_team.compacted_states AS s,
        LATERAL (
          SELECT COALESCE(array_agg(made_by::text), '{}'), COALESCE(array_agg(machine), '{}'),
            COALESCE(array_agg(machine_sequence), '{}')
          FROM standups_team.compacted_machines WHERE team = s.team
        ) AS m (roles, machines, sequences)
      WHERE s.team = \(team)
      """, logger: logger)
    var state: CompactedTeamState?
    for (through, standups, roles, machines, sequences)
      in try rows.decode((Int64, String, [String], [UUID], [Int64]).self)
    {
      var seen: [MemberMachine: Int64] = [:]
      for (role, (machine, sequence)) in zip(roles, zip(machines, sequences)) {
        seen[MemberMachine(madeBy: role, machine: machine)] = sequence
      }
      let decoded: [Standup]
      do {
        decoded = try JSONDecoder().decode([Standup].self, from: Data(standups.utf8))
      } catch {
        throw TeamSchemaError.unreadableCompactedState(reason: "\(error)")
      }
      state = CompactedTeamState(through: through, standups: decoded, machinesSeen: seen)
    }
    return state
  }

  /// Moves the team's horizon past the numbers missing for longer than a second, when there are
  /// any: a pull stopped at one goes on past it (`pass_gaps`). A transaction still holding such
  /// a number can then never commit.
  static func passGaps(team: String, on connection: PostgresConnection, logger: Logger)
    async throws
  {
    try await serializable(on: connection, logger: logger) {
      _ = try await connection.allRows("SELECT standups_team.pass_gaps(\(team))", logger: logger)
    }
  }
}
