import ArgumentParser
import Foundation
import StandupsTerminal

/// `standups team …`: a team's PostgreSQL server.
struct Team: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Share standups with a team through its PostgreSQL server.",
    discussion: """
      URL is a libpq connection URL: postgresql://USER@HOST:PORT/DATABASE?sslmode=MODE (a HOST \
      that starts with / is a Unix-socket folder). The password comes from PGPASSWORD or \
      ~/.pgpass, as libpq reads them; it is never stored. Exit codes: 0 done, 64 a URL that \
      cannot be used, no team joined, or a team to name (--team), 67 no such role, 69 the server cannot be reached or \
      used, 74 the database could not be written, 77 the server refused the role, its \
      certificate is not one sslmode trusts, the role is no longer in the team (this machine \
      then leaves it, keeping the standups), or prune was run by a role that does not own the \
      team schema.
      """,
    subcommands: [
      TeamSetUp.self, TeamAdd.self, TeamRemove.self, TeamPrune.self, TeamJoin.self,
      TeamStatus.self, TeamLeave.self,
    ]
  )
}

struct TeamSetUp: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "setup",
    abstract: "Create or upgrade the team schema in the database at URL, as its owner.")

  @Argument(help: "The server's URL.") var url: String

  func run() async throws {
    try await report { try await TeamCommands.setUp(url: url) }
  }
}

struct TeamAdd: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add",
    abstract: "Make existing PostgreSQL login roles members of TEAM, creating it if new.")

  @Argument(help: "The server's URL.") var url: String
  @Argument(help: "The team.") var team: String
  @Argument(help: "Login roles, made with createuser.") var roles: [String]

  func run() async throws {
    try await report { try await TeamCommands.add(url: url, team: team, roles: roles) }
  }
}

struct TeamRemove: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove",
    abstract: "Take roles out of TEAM; their machines keep its standups as their own.")

  @Argument(help: "The server's URL.") var url: String
  @Argument(help: "The team.") var team: String
  @Argument(help: "Members' login roles.") var roles: [String]

  func run() async throws {
    try await report { try await TeamCommands.remove(url: url, team: team, roles: roles) }
  }
}

struct TeamPrune: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prune",
    abstract: "Compact every team's history and prune what every machine has pulled, as owner.",
    discussion: """
      A machine joining a team starts from its compacted state. The changes made in the last \
      --idle-days days are kept, and those the slowest machine seen in that time still needs; \
      one not seen for longer starts from the compacted state when it comes back, its changes \
      still waiting pushed after it.
      """)

  @Argument(help: "The server's URL.") var url: String
  @Option(help: "Days of changes kept, and a machine may go unseen before it is not waited for.")
  var idleDays = TeamCommands.defaultIdleDays

  func validate() throws {
    guard idleDays >= 0 else { throw ValidationError("--idle-days takes 0 or more days.") }
  }

  func run() async throws {
    try await report { try await TeamCommands.prune(url: url, idleDays: idleDays) }
  }
}

struct TeamJoin: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "join",
    abstract: "Sync standups with TEAM from now on, beside any other team this machine is in.")

  @Argument(help: "The server's URL.") var url: String
  @Argument(help: "The team.") var team: String
  @OptionGroup var data: DataFileOption

  func run() async throws {
    let database = try data.url()
    try await report { try await TeamCommands.join(url: url, team: team, database: database) }
  }
}

struct TeamStatus: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status",
    abstract: "The server, the team, the last sync and the changes waiting.",
    discussion: "Exits 0 when the server is reachable, 69 when not, 77 when it refuses the role.")

  @OptionGroup var data: DataFileOption

  func run() async throws {
    let database = try data.url()
    try await report { try await TeamCommands.status(database: database) }
  }
}

struct TeamLeave: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leave",
    abstract: "Stop syncing with TEAM; its standups stay here as personal ones.")

  @Argument(help: "The team to leave; needed when this machine is in several.") var team: String?
  @Option(help: "The team's server, as given to join; needed when two servers have a TEAM.")
  var server: String?
  @OptionGroup var data: DataFileOption

  func run() async throws {
    let database = try data.url()
    try await report {
      try await TeamCommands.leave(team: team, server: server, database: database)
    }
  }
}

/// `standups share`: personal standups become the team's.
struct Share: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Make standups the team's: by title (any case) or ID, or --all.")

  @Argument(help: ArgumentHelp("Standups, by title or ID.", valueName: "standup"))
  var standups: [String] = []
  @Flag(help: "Share every standup.") var all = false
  @Option(help: "The team to share with; needed when this machine is in several.")
  var team: String?
  @Option(help: "The team's server, as given to join; needed when two servers have a --team.")
  var server: String?
  @OptionGroup var data: DataFileOption

  func validate() throws {
    if standups.isEmpty == all {
      return
    }
    throw ValidationError("Name the standups to share, or give --all (not both).")
  }

  func run() async throws {
    let database = try data.url()
    try await report {
      try await TeamCommands.share(
        standups, all: all, team: team, server: server, database: database)
    }
  }
}

/// `standups sync`: one round with the team's server.
struct Sync: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Push every change waiting and pull every change new, once.",
    discussion: "Exits 0 when done, 69 when the server cannot be reached, 77 when it refuses.")

  @OptionGroup var data: DataFileOption

  func run() async throws {
    let database = try data.url()
    try await report { try await TeamCommands.sync(database: database) }
  }
}

/// Prints what a team command says, or its error's sentence, and exits with its code.
private func report(
  _ command: () async throws -> [String]
) async throws {
  do {
    for line in try await command() { print(line) }
  } catch let error as TeamCommandError {
    for line in error.lines { print(line) }
    FileHandle.standardError.write(Data("standups: \(error)\n".utf8))
    throw ExitCode(error.exitCode)
  }
}
