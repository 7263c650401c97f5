import Models
public import StorageClient
public import TeamSync

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
  /// This machine is in several teams, and the command must be told which one (`--team`).
  case whichTeam([String])
  /// This machine is in a team of that name on each of several servers, and the command must be
  /// told which server (`--server`).
  case whichServer(team: String, servers: [String])
  /// This machine is in no team of that name (on that server, when one was named).
  case notInTeam(String)
  /// The standup is shared with another team already: a standup is in one team.
  case sharedWithAnotherTeam(standup: String, team: String)

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
    case .whichTeam, .whichServer, .notInTeam, .sharedWithAnotherTeam: 64
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
    case .storage(let error): "Nothing was changed. \(error.aboutTheDatabase)"
    case .noSuchStandup(let name): "No standup has the title or ID “\(name)”."
    case .ambiguous(let name, let count):
      "\(count) standups have the title “\(name)”: give the ID of the one you mean."
    case .whichTeam(let teams):
      "This machine syncs with \(teams.map { "“\($0)”" }.joined(separator: ", ")): name the "
        + "team (--team TEAM). Nothing was changed."
    case .whichServer(let team, let servers):
      "This machine is in a team named “\(team)” on "
        + "\(servers.map { "“\($0)”" }.joined(separator: " and ")): name its server too "
        + "(--server URL). Nothing was changed."
    case .notInTeam(let team):
      "This machine is in no team named “\(team)”. Nothing was changed."
    case .sharedWithAnotherTeam(let standup, let team):
      "“\(standup)” is shared with “\(team)”: a standup is in one team, so that its notes "
        + "reach no one outside it. Nothing was changed."
    }
  }
}
