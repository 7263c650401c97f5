import Foundation
import StorageClient
import TeamSync

// Which team a command acts on, and every team at once.

extension TeamCommands {
  /// The team a command names (and its server, where two servers have a team of that name),
  /// or the one this machine is in when it names none.
  static func chosen(
    _ team: String?, on server: String?, _ database: StandupsDatabase
  ) async throws(TeamCommandError) -> TeamMembership {
    let memberships = try await storage { try await database.teamMemberships() }
    guard let first = memberships.first else { throw .sync(.notJoined) }
    guard let team else {
      guard memberships.count == 1 else {
        throw .whichTeam(memberships.map { $0.name(among: memberships) })
      }
      return first
    }
    let named = memberships.filter { $0.team == team && (server == nil || $0.server == server) }
    guard let found = named.first else { throw .notInTeam(team) }
    guard named.count == 1 else { throw .whichServer(team: team, servers: named.map(\.server)) }
    return found
  }

  /// `work` done with each team's engine at once, the results in `memberships`' order: a server
  /// that does not answer holds its own teams for the time it is given, not the others' too.
  /// The teams of one server share one connection to it, taking turns.
  static func eachTeam<T: Sendable>(
    _ memberships: [TeamMembership], _ database: StandupsDatabase,
    _ environment: [String: String],
    _ work: @escaping @Sendable (TeamSyncEngine) async throws(SyncProblem) -> T
  ) async -> [Result<T, SyncProblem>] {
    let links = ServerLink.one(forEach: memberships.map(\.server), environment: environment)
    return await withTaskGroup(of: (Int, Result<T, SyncProblem>).self) { group in
      for (index, membership) in memberships.enumerated() {
        group.addTask {
          let engine = TeamSyncEngine(
            database: database, membership: membership, environment: environment,
            link: links[membership.server])
          do throws(SyncProblem) {
            return (index, .success(try await work(engine)))
          } catch {
            return (index, .failure(error))
          }
        }
      }
      var results = [Result<T, SyncProblem>?](repeating: nil, count: memberships.count)
      for await (index, result) in group { results[index] = result }
      return results.compactMap { $0 }
    }
  }
}
