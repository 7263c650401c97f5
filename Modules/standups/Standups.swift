import ArgumentParser
import Foundation
import StandupsTerminal
import StorageClient
import TerminalUI

/// The `standups` command: parses the command line and hands over to the front end.
@main
struct Standups: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "standups",
    abstract: "Run your standups from the terminal: a timer, the speakers, the transcript.",
    discussion: """
      Data: --data-file, or $XDG_DATA_HOME/standups/standups.json \
      (~/.local/share/standups/standups.json).
      The screens open when you quit reopen next time: $XDG_STATE_HOME/standups/session.json \
      (~/.local/state/standups/session.json).
      """,
    version: "standups 1.0.0"
  )

  @Option(help: ArgumentHelp("The file the standups are kept in.", valueName: "path"))
  var dataFile: String?

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

  func validate() throws {
    if dataFile?.isEmpty == true {
      throw ValidationError("--data-file needs the path of a file.")
    }
    if let now, ISO8601DateFormatter().date(from: now) == nil {
      throw ValidationError("--now takes a date and time such as 2026-11-22T09:30:00Z.")
    }
  }

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let options = LaunchOptions(
      dataFile: dataFile.map { URL(fileURLWithPath: $0) }
        ?? StorageClient.defaultFileURL(environment: environment),
      isDataFileGiven: dataFile != nil,
      sessionFile: script == nil ? Session.defaultFileURL(environment: environment) : nil,
      recoveryFolder: Session.defaultFileURL(environment: environment).deletingLastPathComponent(),
      restoresSession: !fresh,
      open: open,
      colors: noColor
        ? .none : ColorSupport.detect(environment: environment, isTerminal: isatty(1) == 1),
      now: now.flatMap { ISO8601DateFormatter().date(from: $0) }
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
