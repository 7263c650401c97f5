public import Foundation
import Models
public import StorageClient
public import TeamSync

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

  /// Joins `team`: checks the server lets this role use it, then syncs once, from the start of
  /// the team's order.
  public static func join(
    url: String, team: String, database file: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let description = try describe(url, environment: environment)
    let database = try await open(file)
    let previous = try await storage { try await database.teamMembership() }
    if let previous {
      guard previous.team == team, previous.server == url else {
        throw .inAnotherTeam(team: previous.team, server: previous.server)
      }
      return ["This machine syncs with “\(team)” on \(description.serverName) already."]
    }
    // NB: Asked first, so that a server that cannot be used leaves the machine untouched.
    do {
      try await TeamSyncEngine(
        database: database, membership: TeamMembership(server: url, team: team, machine: UUID()),
        environment: environment
      ).checkAccess()
    } catch {
      throw .sync(error)
    }
    try await storage {
      try await database.joinTeam(server: url, team: team, machine: UUID())
    }
    let round: TeamSyncEngine.Round
    do {
      round = try await engine(database, environment).syncOnce()
    } catch {
      // NB: Not joined after all: the machine is as it was.
      _ = try await storage { try await database.leaveTeam() }
      throw .sync(error)
    }
    let held = try await storage { try await database.sharedStandupIDs() }
    return [
      "This machine syncs with “\(team)” on \(description.serverName) as \(description.user); "
        + "\(standups(round.report.standupIDs.intersection(held).count)) came from the team."
    ]
      + pullLines(round.report) + (try await deletionLines(database))
      + ["Share a standup with: standups share TITLE (or --all)."]
  }

  /// One round: push everything waiting, pull everything new.
  public static func sync(
    database file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    let round: TeamSyncEngine.Round
    do {
      round = try await engine(database, environment).syncOnce()
    } catch {
      throw .sync(error)
    }
    var lines = ["Pushed \(changes(round.pushed)), pulled \(changes(round.pulled))."]
    if let through = round.report.startedFromCompactedState {
      lines.append(
        "Started from the team's compacted state, made through its change \(through): the "
          + "changes before it were pruned from the team's history.")
    }
    lines += pullLines(round.report)
    lines += try await deletionLines(database)
    return lines
  }

  /// What a round's pull did that the user must hear of, whichever command made it: changes not
  /// applied, standups sent again, and this machine's own copies kept apart.
  private static func pullLines(_ report: TeamPullReport) -> [String] {
    TeamSyncing.notAppliedLines(report.skipped)
      + [
        report.sentAgainSentence, report.keptApartSentence,
      ].compactMap { $0 }
  }

  /// Server, team, last sync, changes waiting; throws when the server cannot be reached or
  /// refuses the role.
  public static func status(
    database file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    guard let membership = try await storage({ try await database.teamMembership() }) else {
      throw .sync(.notJoined)
    }
    let waiting = try await storage { try await database.waitingTeamChangeCount() }
    let shared = try await storage { try await database.sharedStandupIDs() }
    let replaced = try await storage { try await database.valuesReplacedByTheTeam() }
    var lines = [
      "Team: \(membership.team) on \(membership.server)",
      "Shared standups: \(shared.count)",
      "Changes waiting: \(waiting)",
      "Last sync: "
        + (membership.lastSyncedAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never"),
      "Values of yours another member's change replaced: \(replaced.count)",
    ]
    lines += replaced.map { "  \($0.sentence)" }
    lines += try await deletionLines(database)
    do {
      try await engine(database, environment).checkAccess()
    } catch {
      throw .sync(error, lines)
    }
    lines.append(
      waiting == 0 ? "The server is reachable." : "The server is reachable; run standups sync.")
    return lines
  }

  /// Stops syncing; the team's standups stay as personal ones.
  ///
  /// Changes still waiting for the server are sent first, when it can be reached, and what that
  /// round's pull kept apart, skipped or sent again is said, as `sync` says it; changes the
  /// server cannot take stay here, and the user is told how many.
  public static func leave(
    database file: URL, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    guard let membership = try await storage({ try await database.teamMembership() }) else {
      throw .sync(.notJoined)
    }
    var unsent: [String] = []
    var pulled: [String] = []
    if try await storage({ try await database.waitingTeamChangeCount() }) > 0 {
      do {
        pulled = pullLines(try await engine(database, environment).syncOnce().report)
      } catch {
        unsent.append(error.description)
      }
    }
    let waiting = try await storage { try await database.waitingTeamChangeCount() }
    let shared = try await storage { try await database.leaveTeam() }
    return pulled + [
      "This machine no longer syncs with “\(membership.team)”; "
        + (shared == 1
          ? "its 1 standup stays here as a personal one."
          : "its \(shared) standups stay here as personal ones.")
    ]
      + (waiting > 0
        ? [
          "\(changes(waiting)) made here did not reach the team: they stay here "
            + "only. " + unsent.joined(separator: " ")
        ] : [])
  }

  /// Makes standups the team's: those named (a title or an ID, as `--open` takes), or all.
  public static func share(
    _ names: [String], all: Bool, database file: URL
  ) async throws(TeamCommandError) -> [String] {
    let database = try await open(file)
    guard try await storage({ try await database.teamMembership() }) != nil else {
      throw .sync(.notJoined)
    }
    let stored = try await storage { try await database.readStandups() }
    var ids: [Standup.ID] = all ? Array(stored.ids) : []
    for name in names {
      let matches = stored.standups(matching: name)
      guard matches.count == 1, let match = matches.first else {
        throw matches.isEmpty ? .noSuchStandup(name) : .ambiguous(name, matches.count)
      }
      ids.append(match.id)
    }
    let shared = try await storage { try await database.share(ids) }
    let titles = shared.compactMap { stored[id: $0]?.displayTitle }
    guard !titles.isEmpty else {
      return ["Nothing new to share: \(ids.count == 1 ? "it is" : "they are") the team's already."]
    }
    let named = titles.prefix(TeamSyncing.mostNamed).map { "“\(MessageText.escaped($0))”" }
    let more = titles.count - named.count
    return [
      "Shared with the team: \(named.joined(separator: ", "))"
        + (more > 0 ? ", and \(more) more." : ".")
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
  private static func storage<T>(
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

  private static func engine(
    _ database: StandupsDatabase, _ environment: [String: String]
  ) async throws(SyncProblem) -> TeamSyncEngine {
    let membership: TeamMembership?
    do {
      membership = try await database.teamMembership()
    } catch {
      throw .notJoined
    }
    guard let membership else { throw .notJoined }
    return TeamSyncEngine(database: database, membership: membership, environment: environment)
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

  private static func standups(_ count: Int) -> String {
    count == 1 ? "1 standup" : "\(count) standups"
  }

  private static func changes(_ count: Int) -> String {
    count == 1 ? "1 change" : "\(count) changes"
  }
}

/// Why a team command did nothing, with the code it exits with (sysexits).
public enum TeamCommandError: Error, Equatable, CustomStringConvertible {
  /// The server, the URL or the membership: ``TeamSync/SyncProblem`` says which; the lines
  /// are what could be said before it (``TeamCommands/status(database:environment:)``).
  case sync(SyncProblem, [String] = [])
  /// The team schema refused: a role that does not exist, a newer release's schema.
  case schema(TeamSchemaError)
  /// This machine's database could not be opened or written.
  case storage(StorageError)
  /// No standup has this title or ID.
  case noSuchStandup(String)
  /// Several standups have this title.
  case ambiguous(String, Int)
  /// This machine is in another team: joining a second one would send the first one's standups
  /// to it.
  case inAnotherTeam(team: String, server: String)

  /// The status the command exits with.
  public var exitCode: Int32 {
    switch self {
    case .sync(let problem, _): problem.exitCode
    case .schema(.noSuchRole), .schema(.notALoginRole): 67
    case .schema(.notTheOwner): 77
    case .schema(.emptyTeamName): 64
    case .schema: 69
    case .storage(.notADataFile): 64
    case .storage: 74
    case .noSuchStandup, .ambiguous: 65
    case .inAnotherTeam: 64
    }
  }

  /// The lines to print on standard output before the sentence.
  public var lines: [String] {
    if case .sync(_, let lines) = self { lines } else { [] }
  }

  /// The sentence for standard error.
  public var description: String {
    switch self {
    case .sync(let problem, _): problem.description
    case .schema(let error): error.description
    case .storage(let error): "Nothing was changed. \(error)"
    case .noSuchStandup(let name): "No standup has the title or ID “\(name)”."
    case .ambiguous(let name, let count):
      "\(count) standups have the title “\(name)”: give the ID of the one you mean."
    case .inAnotherTeam(let team, let server):
      "This machine syncs with “\(team)” on \(server): a machine is in one team at a time, so "
        + "that a team's standups never go to another. Nothing was changed; to join another, "
        + "leave “\(team)” first (standups team leave), which keeps its standups here as yours."
    }
  }
}
