public import AppFeature
public import Foundation
public import IdentifiedCollections
public import Models
import StandupDetail
public import StorageClient
public import TerminalUI

/// What the `standups` command was asked to do: which data, which screens to start on, how to
/// draw. The executable only parses its arguments into this; everything else is here, where it
/// is tested.
public struct LaunchOptions: Sendable {
  /// The data file.
  public var dataFile: URL
  /// Whether the user named the data file (`--data-file`): then a path that cannot hold it is
  /// a usage error, where the default path only makes the app run without saving.
  public var isDataFileGiven: Bool
  /// The session file: read at launch (unless ``restoresSession`` is off) and written at exit.
  /// `nil` keeps no session (scripts).
  public var sessionFile: URL?
  /// Where the app keeps changes it could not save when it stops (see ``RecoveryFile``), and
  /// looks for them at launch. `nil` keeps none.
  public var recoveryFolder: URL?
  /// Whether to reopen the screens of the last session.
  public var restoresSession: Bool
  /// A standup to open, by title (any case) or ID.
  public var open: String?
  /// What the terminal can show.
  public var colors: ColorSupport
  /// The time a script starts at; the real time when `nil`.
  public var now: Date?

  /// Creates options.
  public init(
    dataFile: URL,
    isDataFileGiven: Bool = false,
    sessionFile: URL?,
    recoveryFolder: URL? = nil,
    restoresSession: Bool = true,
    open: String? = nil,
    colors: ColorSupport = .none,
    now: Date? = nil
  ) {
    self.dataFile = dataFile
    self.isDataFileGiven = isDataFileGiven
    self.sessionFile = sessionFile
    self.recoveryFolder = recoveryFolder
    self.restoresSession = restoresSession
    self.open = open
    self.colors = colors
    self.now = now
  }
}

/// Why the app did not start.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
  /// `--open` named a standup that is not in the data.
  case unknownStandup(String, available: [String])
  /// `--open` was given, but the data could not be read to find the standup.
  case unreadableData(String, StorageError)
  /// A script line is not a command.
  case malformedScript(ScriptError)
  /// The script could not be read.
  case unreadableScript(FileProblem)
  /// The script is not UTF-8 text.
  case scriptIsNotText(path: String)
  /// The app was started without a terminal to draw on.
  case notATerminal
  /// `--data-file` names something that cannot hold the standups: a folder, a device, a named
  /// pipe, a socket, or a path through a file.
  case notADataFile(FileProblem)

  /// The status the process exits with, as `sysexits.h` numbers them: 64 for a usage error,
  /// 65 for bad input data, 66 for an input that cannot be opened.
  public var exitCode: Int32 {
    switch self {
    case .unknownStandup, .unreadableData, .notATerminal, .notADataFile: 64
    case .malformedScript, .scriptIsNotText: 65
    case .unreadableScript: 66
    }
  }

  /// The status the app exits with when it stopped with changes it could not save to the data
  /// file (they are in a recovery file): 74, an input/output error in `sysexits.h`.
  public static let unsavedChangesExitCode: Int32 = 74

  /// The error in words, for standard error.
  public var description: String {
    switch self {
    case .unknownStandup(let query, let available):
      let names =
        available.isEmpty
        ? "There are no standups."
        : "The standups are: "
          + available.map { "\"\($0)\"" }.joined(separator: ", ") + "."
      return "No standup is called \"\(query)\". \(names)"
    case .unreadableData(let query, let error):
      return "Standup \"\(query)\" could not be looked up: \(error)"
    case .malformedScript(let error):
      return error.description
    case .unreadableScript(let problem):
      return "The script could not be read: \(problem)."
    case .scriptIsNotText(let path):
      return "The script \(path) is not UTF-8 text."
    case .notADataFile(let problem):
      return "--data-file must name a file (or where to create one), and \(problem.path) cannot "
        + "be one: \(problem)."
    case .notATerminal:
      return "standups draws on a terminal, and its input or output is not one. "
        + "To run without a terminal, give it a script: standups --script FILE (or - for "
        + "standard input)."
    }
  }
}

extension IdentifiedArray where ID == Standup.ID, Element == Standup {
  /// The standup a person means by `query`: its ID, or its title in any case.
  public func standup(matching query: String) -> Standup? {
    if let uuid = UUID(uuidString: query), let standup = self[id: Standup.ID(uuid)] {
      return standup
    }
    let title = query.trimmingCharacters(in: .whitespaces).lowercased()
    return first { $0.title.lowercased() == title }
  }
}

/// The screens the app starts on: the `--open` standup's detail screen, or the last session's
/// screens, or none; and a line for the status bar when the session could not be used.
public struct LaunchScreens: Equatable, Sendable {
  /// The stack to start with.
  public var path: [AppFeature.Path.State]
  /// Why the last session was not restored, when it was unreadable.
  public var notice: String?

  init(path: [AppFeature.Path.State], notice: String?) {
    self.path = path
    self.notice = notice
  }

  /// Decides the first screens from the options, the standups as stored, and the session.
  ///
  /// - Throws: ``LaunchError`` when `--open` names no standup there is.
  public init(
    options: LaunchOptions,
    stored: Result<StoredStandups, StorageError>
  ) throws(LaunchError) {
    notice = nil
    if let query = options.open {
      let standups: IdentifiedArrayOf<Standup>
      switch stored {
      case .success(let stored): standups = stored.standups
      case .failure(let error): throw .unreadableData(query, error)
      }
      guard let standup = standups.standup(matching: query) else {
        throw .unknownStandup(query, available: standups.map(\.title))
      }
      path = [.detail(StandupDetail.State(standup: standup))]
      return
    }
    guard options.restoresSession, let sessionFile = options.sessionFile,
      case .success(let stored) = stored
    else {
      path = []
      return
    }
    do {
      path = try Session.read(from: sessionFile)?.path(in: stored.standups) ?? []
    } catch {
      path = []
      notice = error.description
    }
  }
}
