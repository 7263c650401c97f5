import AppFeature
import Clocks
import Composable
import Dependencies
import Foundation
import IssueReporting
import Models
import Persistence
import SoundClient
import StorageClient
import TerminalUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts the app: live on a terminal, or running a script. This is everything the `standups`
/// executable does after parsing its arguments.
@MainActor
public enum Launcher {
  /// Runs the app full screen on the terminal until the user quits (or the terminal goes
  /// away), then saves, remembers the open screens and restores the terminal.
  ///
  /// - Returns: The status to exit with.
  public static func runLive(_ options: LaunchOptions) async throws -> Int32 {
    guard RawMode.isTerminal(0), RawMode.isTerminal(1) else {
      throw LaunchError.notATerminal
    }
    let term = ProcessInfo.processInfo.environment["TERM"]
    guard RawMode.drawsFullScreen(term: term) else {
      throw LaunchError.cannotDrawFullScreen(term: term)
    }
    try checkDataFile(options)
    let storage = storageClient(options)
    let stored = await load(storage)
    let screens = try LaunchScreens(options: options, stored: stored)
    let transcript = TypedTranscript()
    let start = ContinuousClock.now
    let now: @MainActor () -> Duration = { ContinuousClock.now - start }
    let app = makeApp(
      options, storage: storage, stored: stored, screens: screens, transcript: transcript,
      format: .init(timeZone: .current), now: now
    ) {
      $0.continuousClock = ContinuousClock()
      $0.date = DateGenerator { Date() }
      $0.soundClient = .liveValue
    }
    let terminal = try LiveTerminal(app: app, colors: options.colors)
    let syncing = TeamSyncing.start(dataFile: options.dataFile, app: app)
    defer { syncing.cancel() }
    let restoreStandardError = logDiagnostics(of: app, options)
    if let message = options.issueToReport {
      reportIssue(message)
    }
    do {
      try await terminal.run()
    } catch {
      restoreStandardError()
      throw error
    }
    restoreStandardError()
    if let sessionFile = options.sessionFile {
      try? Session(path: app.store.state.app.path).write(to: sessionFile)
    }
    if !app.hasUnsavedChanges {
      // NB: A clean exit leaves the database file whole on its own, so that copying
      // standups.sqlite alone makes a backup (Docs/TerminalApp.md, "Files").
      try? await storage.checkpoint()
    }
    return keepUnsavedChanges(of: app, options, at: Date())
  }

  /// Runs a script against the app with a virtual clock, printing each `screen` to `output`.
  ///
  /// - Returns: The status to exit with.
  public static func runScript(
    _ text: String,
    options: LaunchOptions,
    output: @escaping @MainActor (String) -> Void
  ) async throws -> Int32 {
    let script: Script
    do {
      script = try Script(text)
    } catch {
      throw LaunchError.malformedScript(error)
    }
    try checkDataFile(options)
    let storage = storageClient(options)
    let stored = await load(storage)
    let screens = try LaunchScreens(options: options, stored: stored)
    let clock = TestClock()
    let elapsed: @Sendable () -> Duration = {
      TestClock<Duration>.Instant().duration(to: clock.now)
    }
    let start = options.now ?? Date()
    let app = makeApp(
      options, storage: storage, stored: stored, screens: screens, transcript: TypedTranscript(),
      format: .init(timeZone: .current), now: elapsed
    ) {
      $0.continuousClock = clock
      $0.date = DateGenerator {
        let (seconds, attoseconds) = elapsed().components
        return start.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
      }
      $0.soundClient = SoundClient(playSpeakerChange: {})
    }
    app.recoveryDate = { start.addingTimeInterval(elapsed() / .seconds(1)) }
    // NB: No sync engine: a script never reaches the network. What the database holds of the
    // team is shown, and answered, as in the live app.
    let team = await TeamOnScreen.show(dataFile: options.dataFile, on: app)
    await ScriptRunner(app: app, clock: clock, team: team, output: output).run(script)
    if !app.hasUnsavedChanges {
      try? await storage.checkpoint()
    }
    return keepUnsavedChanges(
      of: app, options, at: start.addingTimeInterval(elapsed() / .seconds(1)))
  }

  /// Sends what the app has to say to developers to the log in the state folder while it draws
  /// (``DiagnosticsLog``), and tells the user in the status bar when something was written there.
  ///
  /// - Returns: What gives standard error back.
  private static func logDiagnostics(
    of app: TerminalApp,
    _ options: LaunchOptions
  ) -> @Sendable () -> Void {
    guard let folder = options.stateFolder else {
      // NB: No home and only `--data-file`: nowhere to keep a log, and never the screen.
      IssueReporters.current = []
      return DiagnosticsLog.discardStandardError()
    }
    let log = DiagnosticsLog(in: folder)
    IssueReporters.current = [log]
    let file = log.file.path
    log.onReport { failure in
      // NB: The log is named only once it holds the details: a state folder that is a file,
      // or that cannot be written, holds none.
      let details =
        failure.map { "its details could not be kept: \($0)." } ?? "the details are in \(file)."
      Task { @MainActor in
        app.notice = "Something went wrong inside Standups, and nothing was lost; " + details
      }
    }
    return log.takeStandardError()
  }

  /// Refuses a `--data-file` that cannot hold the standups, before anything is read or drawn.
  private static func checkDataFile(_ options: LaunchOptions) throws(LaunchError) {
    guard options.isDataFileGiven,
      let problem = StorageClient.problemWithDataFile(at: options.dataFile)
    else { return }
    throw .notADataFile(problem)
  }

  /// The text of the script at `path`, or of standard input for `-`.
  ///
  /// - Throws: ``LaunchError/unreadableScript(_:)`` when it cannot be read,
  ///   ``LaunchError/scriptIsNotText(path:)`` when it is not UTF-8.
  public nonisolated static func scriptText(at path: String) throws(LaunchError) -> String {
    let data: Data
    switch path == "-" ? readStandardInput() : FileSystem.live.read(path) {
    case .success(let bytes): data = bytes
    case .failure(let error):
      throw .unreadableScript(error.problem(at: path == "-" ? "standard input" : path))
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw .scriptIsNotText(path: path == "-" ? "on standard input" : path)
    }
    return text
  }

  /// All of standard input, read from the process's own descriptor.
  ///
  /// NB: Never by opening `/dev/stdin`: that opens the pipe, socket or file again, which fails
  /// where this process may read it but not open it (a socket; a pipe another user made).
  private nonisolated static func readStandardInput() -> Result<Data, SystemError> {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(STDIN_FILENO, &chunk, chunk.count)
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(SystemError(code: errno, operation: "read"))
      }
      if count == 0 { return .success(data) }
      data.append(contentsOf: chunk[..<count])
    }
  }

  /// After the app stopped: when changes could not be saved to the database, says on standard
  /// error where they are — the recovery file written when the user was asked, or one written
  /// now — and returns ``LaunchError/unsavedChangesExitCode``; otherwise returns 0.
  private static func keepUnsavedChanges(
    of app: TerminalApp,
    _ options: LaunchOptions,
    at date: Date
  ) -> Int32 {
    guard app.hasUnsavedChanges else { return 0 }
    let problem = app.unsavedChangesProblem
    let kept: String
    do throws(RecoveryFailure) {
      let file: URL
      if let prepared = app.preparedRecoveryFile {
        file = prepared
      } else {
        file = try RecoveryFile.write(
          app.store.state.app.list.standups, in: options.recoveryPlaces, at: date)
      }
      kept = "They are in \(file.path); bring them back with: standups import \(file.path)"
    } catch {
      kept = "They could not be kept in a file either: \(error). They are lost."
    }
    writeError(
      "standups: your changes were not saved to \(options.dataFile.path). \(problem) \(kept)")
    return LaunchError.unsavedChangesExitCode
  }

  /// Writes a line to standard error.
  static func writeError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// The storage the app keeps its standups in.
  private static func storageClient(_ options: LaunchOptions) -> StorageClient {
    .database(at: options.dataFile, importingOnFirstLaunch: options.earlierReleaseDataFile)
  }

  /// Opens the storage and reads the standups, once, before anything is drawn: the first frame,
  /// `--open` and the last session's screens all need them.
  private static func load(_ storage: StorageClient) async -> Result<StoredStandups, StorageError> {
    do {
      return .success(try await storage.load())
    } catch let error as StorageError {
      return .failure(error)
    } catch {
      return .failure(
        .unreadable(
          FileProblem(path: "", reason: .other("\(error)"), technicalDetail: "\(error)")))
    }
  }

  private static func makeApp(
    _ options: LaunchOptions,
    storage: StorageClient,
    stored: Result<StoredStandups, StorageError>,
    screens: LaunchScreens,
    transcript: TypedTranscript,
    format: TerminalFormat,
    now: @escaping @MainActor () -> Duration,
    dependencies: @escaping (inout DependencyValues) -> Void
  ) -> TerminalApp {
    let initialState = PersistedApp.State(
      app: AppFeature.State(path: StackState(screens.path)), stored: stored)
    let store = Store(initialState: initialState) {
      PersistedApp()
    } withDependencies: {
      $0.storageClient = storage
      $0.speechClient = transcript.client
      $0.uuid = .init { UUID() }
      dependencies(&$0)
    }
    let app = TerminalApp(store: store, transcript: transcript, format: format, now: now)
    app.dataFile = options.dataFile.path
    let recovered = RecoveryFile.existing(in: options.recoveryPlaces).last
    app.notice =
      [
        recovered.map {
          "Not saved last time: \($0.path); bring it back with: standups import \($0.path)"
        },
        screens.notice,
      ].compactMap { $0 }.joined(separator: " ").nilIfEmpty
    app.recoveryPlaces = options.recoveryPlaces
    return app
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
