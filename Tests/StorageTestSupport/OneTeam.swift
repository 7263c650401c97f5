public import Models
public import StorageClient
public import Tagged

// Most tests hold a machine in one team. These read and write that team's rows, as the sync
// engine does with its membership, so that such a test names no membership; a test of a machine
// in several teams (`TeamLedgerTeamsTests`, `ScriptTeamTests`) calls the database's own methods,
// which take one.

extension StandupsDatabase {
  /// The one team this machine is in, or `nil` when it is in none.
  ///
  /// - Throws: `OneTeamError` when the machine is in several.
  public func teamMembership() async throws -> TeamMembership? {
    let memberships = try teamMemberships()
    guard memberships.count <= 1 else { throw OneTeamError() }
    return memberships.first
  }

  /// Shares `ids` with the one team this machine is in.
  @discardableResult
  public func share(_ ids: [Standup.ID]) async throws -> [Standup.ID] {
    try share(ids, with: try await theTeam())
  }

  /// The one team's shared standups; none when the machine is in no team.
  public func sharedStandupIDs() async throws -> Set<Standup.ID> {
    guard let membership = try await teamMembership() else { return [] }
    return try sharedStandupIDs(in: membership.id)
  }

  /// The changes waiting for the one team's server.
  public func waitingTeamChanges(limit: Int) async throws -> [WaitingTeamChange] {
    try waitingTeamChanges(in: try await theTeam(), limit: limit)
  }

  /// Notes that the one team's server has the changes up to `sequence`.
  public func teamChangesPushed(through sequence: Int64) async throws {
    try teamChangesPushed(in: try await theTeam(), through: sequence)
  }

  /// Applies changes of the one team's order.
  public func applyPulledTeamChanges(
    _ pulled: [PulledTeamChange], through sequence: Int64, as role: String
  ) async throws -> TeamPullReport {
    try applyPulledTeamChanges(pulled, in: try await theTeam(), through: sequence, as: role)
  }

  /// Leaves the one team.
  @discardableResult
  public func leaveTeam() async throws -> Int {
    try leaveTeam(try await theTeam())
  }

  private func theTeam() async throws -> TeamMembership.ID {
    guard let membership = try await teamMembership() else { throw OneTeamError() }
    return membership.id
  }
}

/// A test meant for a machine in one team ran on one in none or several.
public struct OneTeamError: Error {}
