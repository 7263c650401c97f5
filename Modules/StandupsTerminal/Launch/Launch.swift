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
  /// The data file of an earlier release, imported when the database does not exist yet.
  public var earlierReleaseDataFile: URL?
  /// The session file: read at launch (unless ``restoresSession`` is off) and written at exit.
  /// `nil` keeps no session (scripts).
  public var sessionFile: URL?
  /// Where the app may keep changes it could not save when it stops, in order (see
  /// ``RecoveryFile``), and looks for them at launch.
  public var recoveryPlaces: [URL]
  /// Whether to reopen the screens of the last session.
  public var restoresSession: Bool
  /// A standup to open, by title (any case) or ID.
  public var open: String?
  /// What the terminal can show.
  public var colors: ColorSupport
  /// The time a script starts at; the real time when `nil`.
  public var now: Date?
  /// Where the running app writes its diagnostics (``DiagnosticsLog``): the state folder; `nil`
  /// when there is none, and they go nowhere.
  public var stateFolder: URL?
  /// An issue to report once the app draws, to see where diagnostics go (`--report-issue`).
  public var issueToReport: String?

  /// Creates options.
  public init(
    dataFile: URL,
    isDataFileGiven: Bool = false,
    earlierReleaseDataFile: URL? = nil,
    sessionFile: URL?,
    recoveryPlaces: [URL] = [],
    restoresSession: Bool = true,
    open: String? = nil,
    colors: ColorSupport = .none,
    now: Date? = nil,
    stateFolder: URL? = nil,
    issueToReport: String? = nil
  ) {
    self.dataFile = dataFile
    self.isDataFileGiven = isDataFileGiven
    self.earlierReleaseDataFile = earlierReleaseDataFile
    self.sessionFile = sessionFile
    self.recoveryPlaces = recoveryPlaces
    self.restoresSession = restoresSession
    self.open = open
    self.colors = colors
    self.now = now
    self.stateFolder = stateFolder
    self.issueToReport = issueToReport
  }
}

/// Why the app did not start.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
  /// `--open` named a standup that is not in the data; the titles are the standups' display
  /// titles (``Models/Standup/displayTitle``).
  case unknownStandup(String, available: [String])
  /// `--open` named a title that several standups have, in some case, and none exactly as
  /// given.
  case ambiguousStandup(String, matches: [Standup])
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
  /// The terminal cannot be drawn on full screen (``TerminalUI/RawMode/drawsFullScreen(term:)``);
  /// `term` is its `TERM`, `nil` when that is not set.
  case cannotDrawFullScreen(term: String?)
  /// `--data-file` names something that cannot hold the standups: a folder, a device, a named
  /// pipe, a socket, or a path through a file.
  case notADataFile(FileProblem)
  /// No database was named and there is no home folder to keep one in (``AppFolders``).
  case noHome

  /// The status the process exits with, as `sysexits.h` numbers them: 64 for a usage error,
  /// 65 for bad input data, 66 for an input that cannot be opened.
  public var exitCode: Int32 {
    switch self {
    case .unknownStandup, .ambiguousStandup, .unreadableData, .notATerminal,
      .cannotDrawFullScreen, .notADataFile, .noHome:
      64
    case .malformedScript, .scriptIsNotText: 65
    case .unreadableScript: 66
    }
  }

  /// Why there is nowhere to keep the standups, and what to do.
  public static let noHomeSentence =
    "standups keeps your standups in your home folder, and this account has none: HOME is not "
    + "set, and the password database names no home folder. Set HOME, or give the database "
    + "with --data-file PATH."

  /// The status the app exits with when it stopped with changes it could not save to the data
  /// file (they are in a recovery file): 74, an input/output error in `sysexits.h`.
  public static let unsavedChangesExitCode: Int32 = 74

  /// The error in words, for standard error.
  public var description: String {
    switch self {
    case .unknownStandup(let query, let available):
      let sentence = "No standup is called \(MessageText.quoted(query))."
      guard !available.isEmpty else { return sentence + " There are no standups." }
      return sentence + " The standups are:\n"
        + MessageText.screenful(available.map(MessageText.quoted))
    case .ambiguousStandup(let query, let matches):
      return
        "\(MessageText.quoted(query)) could be any of \(matches.count) standups; give the title "
        + "exactly as it is written, or the ID:\n"
        + MessageText.screenful(
          matches.map { "\(MessageText.quoted($0.displayTitle))  \($0.id.rawValue)" })
    case .unreadableData(let query, let error):
      return "Standup \(MessageText.quoted(query)) could not be looked up: \(error)"
    case .malformedScript(let error):
      return error.description
    case .unreadableScript(let problem):
      return "The script could not be read: \(problem)."
    case .scriptIsNotText(let path):
      return "The script \(path) is not UTF-8 text."
    case .notADataFile(let problem):
      return "--data-file must name a file (or where to create one): \(problem)."
    case .noHome:
      return LaunchError.noHomeSentence
    case .notATerminal:
      return "standups draws on a terminal, and its input or output is not one. "
        + "To run without a terminal, give it a script: standups --script FILE (or - for "
        + "standard input)."
    case .cannotDrawFullScreen(let term):
      let named = term.map { "TERM=\(MessageText.quoted($0))" } ?? "TERM not set"
      return "standups draws full screen, and this terminal (\(named)) cannot move its cursor. "
        + "Run it in a terminal emulator (xterm, a console, tmux), or give it a script: "
        + "standups --script FILE (or - for standard input)."
    }
  }
}

extension IdentifiedArray where ID == Standup.ID, Element == Standup {
  /// The standups a person may mean by `query`: the one with that ID; else those whose display
  /// title is `query` in any case, narrowed to the ones that are `query` exactly when there are
  /// any. More than one means the person must say which.
  ///
  /// Titles are compared as they are shown (``Models/Standup/displayTitle``), so a title the
  /// `--open` listing shows is a title `--open` takes.
  public func standups(matching query: String) -> [Standup] {
    if let uuid = UUID(uuidString: query), let standup = self[id: Standup.ID(uuid)] {
      return [standup]
    }
    let title = query.trimmingCharacters(in: .whitespaces)
    func shownTitle(_ standup: Standup) -> String {
      standup.displayTitle.trimmingCharacters(in: .whitespaces)
    }
    let matches = elements.filter { shownTitle($0).lowercased() == title.lowercased() }
    let exact = matches.filter { shownTitle($0) == title }
    return exact.isEmpty ? matches : exact
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
  /// - Throws: ``LaunchError`` when `--open` names no standup there is, or several.
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
      let matches = standups.standups(matching: query)
      guard let standup = matches.first else {
        throw .unknownStandup(query, available: standups.map(\.displayTitle))
      }
      guard matches.count == 1 else {
        throw .ambiguousStandup(query, matches: matches)
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

/// What the status line says at launch about the data: meetings that an app stopped recording
/// without ending them, now past meetings, and the data file of an earlier release brought in.
enum LaunchNotice {
  /// The notice for what loading did, or `nil` when there is nothing to say.
  static func text(for stored: StoredStandups) -> String? {
    var sentences: [String] = []
    switch stored.recoveredMeetings.count {
    case 0:
      break
    case 1:
      let recovered = stored.recoveredMeetings[0]
      let lines = recovered.meeting.transcript.split(separator: "\n").count
      sentences.append(
        "A meeting of \(MessageText.quoted(recovered.standupTitle)) stopped before it ended; "
          + "it is kept as a past meeting (\(lines) line\(lines == 1 ? "" : "s")).")
    default:
      let titles = stored.recoveredMeetings.map { MessageText.quoted($0.standupTitle) }
      sentences.append(
        "\(titles.count) meetings stopped before they ended; they are kept as past meetings of "
          + "\(titles.joined(separator: ", ")).")
    }
    switch stored.firstLaunchImport {
    case .imported(let report)?:
      sentences.append(
        "Brought in the standups of \(report.path), which is left as it was. \(report)")
    case .failed(let path, let reason)?:
      // NB: The file is named once, in the command that brings it in, so that the notice is
      // short enough to show it whole.
      let ending = reason.hasSuffix(".") ? "" : "."
      sentences.append(
        "The standups of an earlier release could not be brought in: \(reason)\(ending) It is "
          + "left as it was; once mended: standups import \(path)")
    case nil:
      break
    }
    return sentences.isEmpty ? nil : sentences.joined(separator: " ")
  }
}
