public import Foundation
import Models
import StorageClient
import TeamSync

/// What `standups team …`, `standups share` and `standups sync` do: each returns the lines to
/// print, or throws a ``TeamCommandError`` whose sentence and exit code the command ends with.
///
/// ```swift
/// let lines = try await TeamCommands.join(url: url, team: "platform", database: file)
/// lines.forEach { print($0) }
/// ```
public enum TeamCommands {
  /// Creates or upgrades the team schema in the database at `url`, as its owner.
  public static func setUp(url: String) async throws(TeamCommandError) -> [String] {
    let description = try describe(url)
    try await administer {
      try await TeamSchema.setUp(server: description)
    }
    return [
      "The team schema on \(description.serverName) is at version \(TeamSchema.currentVersion)."
    ]
  }

  /// Makes existing login roles members of `team`, creating the team if it is new.
  public static func add(
    url: String, team: String, roles: [String]
  ) async throws(TeamCommandError) -> [String] {
    let description = try describe(url)
    let unlimited = try await administer {
      try await TeamSchema.addMembers(team: team, roles: roles, server: description)
    }
    let limit = TeamSchema.memberConnectionLimit
    return ["\(roles.joined(separator: ", ")) \(roles.count == 1 ? "is" : "are") in “\(team)”."]
      + unlimited.map { role in
        "\(role) may take every connection the server has: only a role with CREATEROLE may "
          + "limit it; ask the administrator to run ALTER ROLE \(role) CONNECTION LIMIT \(limit)."
      }
  }

  /// Takes roles out of `team`: their machines stop syncing and keep its standups as their own.
  public static func remove(
    url: String, team: String, roles: [String]
  ) async throws(TeamCommandError) -> [String] {
    let description = try describe(url)
    try await administer {
      try await TeamSchema.removeMembers(team: team, roles: roles, server: description)
    }
    return [
      "\(roles.joined(separator: ", ")) \(roles.count == 1 ? "is" : "are") no longer in “\(team)”."
    ]
  }

  /// How many days a machine may go without syncing before a prune stops waiting for it.
  public static let defaultIdleDays = TeamHistory.defaultIdleDays

  /// Compacts every team's history and prunes it to what the slowest machine still needs, as
  /// the schema's owner; machines not seen for `idleDays` are not waited for.
  public static func prune(
    url: String, idleDays: Int = defaultIdleDays
  ) async throws(TeamCommandError) -> [String] {
    let description = try describe(url)
    var pruned: [TeamHistory.Pruned] = []
    try await administer {
      pruned = try await TeamHistory.prune(server: description, idleDays: idleDays)
    }
    return pruned.isEmpty
      ? ["There are no teams on \(description.serverName)."]
      : pruned.flatMap(\.sentences)
  }

  /// Joins `team`, beside the teams this machine is in already: checks the server lets this
  /// role use it, then syncs once, from the start of the team's order. A standup is shared with
  /// one team; those shared with another stay that team's.
  public static func join(
    url: String, team: String, database file: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let description = try describe(url, environment: environment)
    let database = try await open(file)
    let memberships = try await storage { try await database.teamMemberships() }
    if memberships.contains(where: { $0.team == team && $0.server == url }) {
      return ["This machine syncs with “\(team)” on \(description.serverName) already."]
    }
    let joined = try await storage {
      try await database.joinTeam(server: url, team: team, machine: UUID())
    }
    let engine = TeamSyncEngine(database: database, membership: joined, environment: environment)
    let round: TeamSyncEngine.Round
    do {
      try await engine.checkAccess()
      round = try await engine.syncOnce()
    } catch {
      // NB: Not joined after all: the machine is in the teams it was in, and its own standups
      // are as they were. The team's standups a pull cut short brought stay, as personal ones.
      try await storage { try await engine.leaveAfterAFailedJoin() }
      throw .sync(error)
    }
    let held = try await storage { try await database.sharedStandupIDs(in: joined.id) }
    let others = memberships.map { "“\($0.team)”" }
    return [
      "This machine syncs with “\(team)” on \(description.serverName) as \(description.user); "
        + "\(standups(round.report.standupIDs.intersection(held).count)) came from the team."
    ]
      + (others.isEmpty
        ? []
        : ["It syncs with \(others.joined(separator: ", ")) too; each standup stays in its team."])
      + pullLines(round.report) + (try await deletionLines(database))
      + [
        others.isEmpty
          ? "Share a standup with: standups share TITLE (or --all)."
          : "Share a standup with: standups share TITLE --team \(team)."
      ]
  }

  /// One round with each team's server: push everything waiting, pull everything new. A team
  /// whose server cannot be reached does not keep the others from syncing; the command ends
  /// with its problem.
  public static func sync(
    database file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    let memberships = try await storage { try await database.teamMemberships() }
    guard !memberships.isEmpty else { throw .sync(.notJoined) }
    let rounds = await eachTeam(memberships, database, environment) { engine throws(SyncProblem) in
      try await engine.syncOnce()
    }
    var lines: [String] = []
    var failed: SyncProblem?
    for (membership, result) in zip(memberships, rounds) {
      let named = memberships.count > 1 ? "“\(membership.name(among: memberships))”: " : ""
      let round: TeamSyncEngine.Round
      switch result {
      case .success(let done): round = done
      case .failure(let error):
        lines.append(named + error.description)
        failed = failed ?? error
        continue
      }
      lines.append(named + "Pushed \(changes(round.pushed)), pulled \(changes(round.pulled)).")
      if let through = round.report.startedFromCompactedState {
        lines.append(
          "Started from the team's compacted state, made through its change \(through): the "
            + "changes before it were pruned from the team's history.")
      }
      lines += pullLines(round.report)
    }
    lines += try await deletionLines(database)
    if let failed {
      // NB: The problem's sentence ends the command; with several teams, the lines say how each
      // of the others went.
      throw .sync(failed, memberships.count > 1 ? lines : [])
    }
    return lines
  }

  /// What a round's pull did that the user must hear of, whichever command made it: changes not
  /// applied, standups sent again, and this machine's own copies kept apart.
  private static func pullLines(_ report: TeamPullReport) -> [String] {
    report.notAppliedSentences
      + [
        report.resentSentence, report.keptApartSentence,
      ].compactMap { $0 }
  }

  /// For each team: server, team, last sync, changes waiting; throws when a server cannot be
  /// reached or refuses the role.
  public static func status(
    database file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    let memberships = try await storage { try await database.teamMemberships() }
    guard !memberships.isEmpty else { throw .sync(.notJoined) }
    let replaced = try await storage { try await database.valuesReplacedByTheTeam() }
    let access = await eachTeam(memberships, database, environment) { engine throws(SyncProblem) in
      try await engine.checkAccess()
    }
    var lines: [String] = []
    var failed: SyncProblem?
    for (membership, access) in zip(memberships, access) {
      let waiting = try await storage {
        try await database.waitingTeamChangeCount(in: membership.id)
      }
      let shared = try await storage { try await database.sharedStandupIDs(in: membership.id) }
      lines += [
        "Team: \(membership.team) on \(membership.server)",
        "Shared standups: \(shared.count)",
        "Changes waiting: \(waiting)",
        "Last sync: "
          + (membership.lastSyncedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never"),
      ]
      switch access {
      case .success:
        lines.append(
          waiting == 0
            ? "The server is reachable." : "The server is reachable; run standups sync.")
      case .failure(let error):
        if memberships.count > 1 { lines.append(error.description) }
        failed = failed ?? error
      }
    }
    lines.append("Values of yours another member's change replaced: \(replaced.count)")
    lines += replaced.map { "  \($0.sentence)" }
    lines += try await deletionLines(database)
    if let failed { throw .sync(failed, lines) }
    return lines
  }

  /// Stops syncing with `team` (the one this machine is in, when it is in one); its standups
  /// stay as personal ones, and the other teams go on as they were.
  ///
  /// Changes still waiting for the server are sent first, when it can be reached, and what that
  /// round's pull kept apart, skipped or sent again is said, as `sync` says it; changes the
  /// server cannot take stay here, and the user is told how many.
  public static func leave(
    team: String? = nil, server: String? = nil, database file: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    let membership = try await chosen(team, on: server, database)
    var unsent: [String] = []
    var pulled: [String] = []
    let engine = TeamSyncEngine(
      database: database, membership: membership, environment: environment)
    if try await storage({ try await database.waitingTeamChangeCount(in: membership.id) }) > 0 {
      do {
        pulled = pullLines(try await engine.syncOnce().report)
      } catch {
        unsent.append(error.description)
      }
    }
    let waiting = try await storage { try await database.waitingTeamChangeCount(in: membership.id) }
    let shared = try await storage { try await database.leaveTeam(membership.id) }
    return pulled + [
      "This machine no longer syncs with “\(membership.team)”; "
        + (shared == 1
          ? "its 1 standup stays here as a personal one."
          : "its \(shared) standups stay here as personal ones.")
    ]
      + (waiting > 0
        ? [
          "\(changes(waiting)) made here did not reach the team: "
            + (waiting == 1 ? "it stays" : "they stay") + " here only. "
            + unsent.joined(separator: " ")
        ] : [])
  }

  /// Makes standups `team`'s (the one this machine is in, when it is in one): those named (a
  /// title or an ID, as `--open` takes), or all. A standup shared with another team stays
  /// that team's: named, it is refused; with `--all`, it is left out.
  public static func share(
    _ names: [String], all: Bool, team: String? = nil, server: String? = nil,
    database file: URL
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    let membership = try await chosen(team, on: server, database)
    let stored = try await storage { try await database.readStandups() }
    let teams = try await storage { try await database.sharedStandupTeams() }
    let memberships = try await storage { try await database.teamMemberships() }
    let othersTeam = { (id: Standup.ID) -> String? in
      guard let other = teams[id], other != membership.id else { return nil }
      return memberships.first { $0.id == other }?.name(among: memberships)
    }
    var ids: [Standup.ID] = all ? stored.ids.filter { othersTeam($0) == nil } : []
    for name in names {
      let matches = stored.standups(matching: name)
      guard matches.count == 1, let match = matches.first else {
        throw matches.isEmpty ? .noSuchStandup(name) : .ambiguous(name, matches.count)
      }
      if let other = othersTeam(match.id) {
        throw .sharedWithAnotherTeam(standup: MessageText.escaped(match.displayTitle), team: other)
      }
      ids.append(match.id)
    }
    let shared = try await storage { try await database.share(ids, with: membership.id) }
    let titles = shared.compactMap { stored[id: $0]?.displayTitle }
    guard !titles.isEmpty else {
      return ["Nothing new to share: \(ids.count == 1 ? "it is" : "they are") the team's already."]
    }
    return [
      "Shared with “\(membership.team)”: \(Wording.named(titles.map { MessageText.escaped($0) }))."
    ]
  }

  // MARK: - Helpers

  private static func describe(
    _ url: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(TeamCommandError) -> ConnectionDescription {
    do {
      return try ConnectionDescription(url: url, environment: environment)
    } catch {
      throw .sync(.connection(error))
    }
  }

  private static func administer<Result>(
    _ work: () async throws -> Result
  ) async throws(TeamCommandError) -> Result {
    do {
      return try await work()
    } catch let error as TeamSchemaError {
      throw .schema(error)
    } catch let error as SyncProblem {
      throw .sync(error)
    } catch {
      throw .sync(.unreachable(server: "", reason: String(describing: error)))
    }
  }

  private static func open(_ file: URL) async throws(TeamCommandError) -> StandupsDatabase {
    if let problem = StorageClient.problemWithDataFile(at: file) {
      throw .storage(.notADataFile(problem))
    }
    let database = StandupsDatabase(path: file.path)
    let stored = try await storage { try await database.load() }
    if case .readOnly(let reason) = stored.access {
      throw .storage(.refused(.readOnly(reason)))
    }
    return database
  }

  // NB: Every call of the database's throws a `StorageError`; a closure's thrown type is not
  // inferred, so the others are not expected, and are told as a write that failed.
  static func storage<T>(
    _ work: () async throws -> T
  ) async throws(TeamCommandError) -> T {
    do {
      return try await work()
    } catch let error as StorageError {
      throw .storage(error)
    } catch {
      throw .storage(
        .writeFailed(
          FileProblem(
            path: "", reason: .other(String(describing: error)), technicalDetail: "")))
    }
  }

  /// The standups another member deleted while this machine had changed them, which the app
  /// asks about.
  private static func deletionLines(_ database: StandupsDatabase) async throws(TeamCommandError)
    -> [String]
  {
    try await storage { try await database.teamDeletionQuestions() }.map {
      "“\($0.standup.displayTitle)” was deleted by \($0.deletedBy) while you changed it here: "
        + "it is kept here until you answer in the app (keep it for the team, or let it go)."
    }
  }

  private static func standups(_ count: Int) -> String { Wording.counted(count, "standup") }

  private static func changes(_ count: Int) -> String { Wording.counted(count, "change") }
}
