import ArgumentParser
import Foundation
import StandupsTerminal
import StorageClient
import TerminalUI

/// The `standups` command: the app, with `export` and `import` beside it. It parses the command
/// line and hands over to the front end.
///
/// NB: The app is the root command itself, not a default subcommand: the help of a root command
/// lists only its own options, and `standups --help` must show the app's.
@main
struct Standups: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "standups",
    abstract: "Run your standups from the terminal: a timer, the speakers, the transcript.",
    discussion: """
      Data: --data-file, or $XDG_DATA_HOME/standups/standups.sqlite \
      (~/.local/share/standups/standups.sqlite), an SQLite database. Without HOME, the \
      account's home folder in the password database. The screens open when you quit reopen \
      next time: $XDG_STATE_HOME/standups/session.json (~/.local/state/standups/session.json).
      """,
    version: "standups 1.0.0",
    subcommands: [Export.self, Import.self, Run.self, Share.self, Sync.self, Team.self]
  )

  @OptionGroup var app: AppOptions

  func run() async throws {
    try await app.run()
  }
}

/// `standups run`, which earlier releases listed as the default subcommand: the app, as
/// `standups` alone runs it.
struct Run: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the app (what `standups` alone does).",
    shouldDisplay: false
  )

  @OptionGroup var app: AppOptions

  func run() async throws {
    try await app.run()
  }
}

/// The database to use: `--data-file`, or the default one.
struct DataFileOption: ParsableArguments {
  @Option(help: ArgumentHelp("The database the standups are kept in.", valueName: "path"))
  var dataFile: String?

  func validate() throws {
    if dataFile?.isEmpty == true {
      throw ValidationError("--data-file needs the path of a file.")
    }
  }

  /// The user's folders.
  var folders: AppFolders {
    AppFolders(environment: ProcessInfo.processInfo.environment)
  }

  /// The database's location; without `--data-file` and a home folder, a usage error.
  func url() throws -> URL {
    if let dataFile { return URL(fileURLWithPath: dataFile) }
    guard let database = folders.database else {
      FileHandle.standardError.write(Data("standups: \(LaunchError.noHomeSentence)\n".utf8))
      throw ExitCode(LaunchError.noHome.exitCode)
    }
    return database
  }
}

/// The app's options, and running it.
struct AppOptions: ParsableArguments {
  @OptionGroup var data: DataFileOption

  @Option(
    help: ArgumentHelp(
      "Start on this standup's screen, by title (any case) or ID.", valueName: "standup"))
  var open: String?

  @Flag(help: "Start on the list instead of reopening the last session's screens.")
  var fresh = false

  @Option(
    help: ArgumentHelp(
      "Run the commands in this file (- for standard input) without a terminal, printing each screen.",
      valueName: "file"))
  var script: String?

  @Flag(help: "Draw without colours (as does a NO_COLOR environment variable).")
  var noColor = false

  @Option(help: .hidden)
  var now: String?

  // NB: For a person or a test checking where the running app's diagnostics go (the log in the
  // state folder, never the screen): reports this text as an issue once the app draws.
  @Option(help: .hidden)
  var reportIssue: String?

  func validate() throws {
    if let now, ISO8601DateFormatter().date(from: now) == nil {
      throw ValidationError("--now takes a date and time such as 2026-11-22T09:30:00Z.")
    }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let folders = data.folders
    let dataFile = try data.url()
    let options = LaunchOptions(
      dataFile: dataFile,
      isDataFileGiven: data.dataFile != nil,
      earlierReleaseDataFile: data.dataFile == nil ? folders.earlierReleaseDataFile : nil,
      sessionFile: script == nil ? folders.sessionFile : nil,
      recoveryPlaces: RecoveryFile.places(
        state: folders.state, database: dataFile, environment: environment),
      restoresSession: !fresh,
      open: open,
      colors: noColor
        ? .none
        : ColorSupport.detect(
          environment: environment, isTerminal: isatty(1) == 1,
          terminfoColors: ColorSupport.terminfoColors(term:)),
      now: now.flatMap { ISO8601DateFormatter().date(from: $0) },
      stateFolder: folders.state,
      issueToReport: reportIssue
    )
    let status: Int32
    do {
      if let script {
        let text = try Launcher.scriptText(at: script)
        status = try await Launcher.runScript(text, options: options) { print($0, terminator: "") }
      } else {
        status = try await Launcher.runLive(options)
      }
    } catch let error as LaunchError {
      FileHandle.standardError.write(Data("standups: \(error)\n".utf8))
      throw ExitCode(error.exitCode)
    }
    if status != 0 {
      throw ExitCode(status)
    }
  }
}

/// `standups export`: the standups as JSON.
struct Export: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the standups as JSON, in the file format of earlier releases.",
    discussion: """
      Only reads the database. Bring the file back with `standups import`. Exits 65, having \
      written the rest, when standups that cannot be read were left out.
      """
  )

  @OptionGroup var data: DataFileOption

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("Where to write the JSON; standard output by default.", valueName: "file"))
  var output: String?

  func run() async throws {
    let database = try data.url()
    let export: DataFileCommands.Export
    do {
      export = try await DataFileCommands.export(from: database)
      if let output {
        try DataFileCommands.write(
          export.json, to: URL(fileURLWithPath: output), database: database)
      } else {
        FileHandle.standardOutput.write(export.json + Data("\n".utf8))
      }
    } catch {
      FileHandle.standardError.write(Data("standups: \(error)\n".utf8))
      throw ExitCode(error.exitCode)
    }
    for note in export.notes {
      FileHandle.standardError.write(Data("standups: \(note)\n".utf8))
    }
    if export.isIncomplete {
      throw ExitCode(65)
    }
  }
}

/// `standups import FILE`: standups from JSON, merged into the database.
struct Import: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Bring the standups of a JSON file into the database, removing nothing.",
    discussion: """
      The file can be a recovery file the app wrote when it could not save, the data file of an \
      earlier release, or an export. Standups the database lacks are added; those it has take \
      the file's title, length and theme, and gain its attendees and meetings.
      """
  )

  @Argument(help: ArgumentHelp("The JSON file.", valueName: "file"))
  var file: String

  @OptionGroup var data: DataFileOption

  func run() async throws {
    let database = try data.url()
    do {
      let report = try await DataFileCommands.importFile(file, into: database)
      print("Imported \(file) into \(database.path). \(report)")
    } catch {
      FileHandle.standardError.write(Data("standups: \(error)\n".utf8))
      throw ExitCode(error.exitCode)
    }
  }
}
