import AppFeature
import Clocks
import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import SoundClient
import StorageClient
import TerminalUI

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
    let stored = await preload(options)
    let screens = try launchScreens(options, stored: stored)
    let transcript = TypedTranscript()
    let app = makeApp(
      options, screens: screens, transcript: transcript, format: .init(timeZone: .current)
    ) {
      $0.continuousClock = ContinuousClock()
      $0.date = DateGenerator { Date() }
      $0.soundClient = .liveValue
    }
    let terminal = try LiveTerminal(app: app, colors: options.colors)
    try await terminal.run()
    if let sessionFile = options.sessionFile {
      try? Session(path: app.store.state.path).write(to: sessionFile)
    }
    return 0
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
    let stored = await preload(options)
    let screens = try launchScreens(options, stored: stored)
    let clock = TestClock()
    let elapsed = LockIsolated(Duration.zero)
    let start = options.now ?? Date()
    let app = makeApp(
      options, screens: screens, transcript: TypedTranscript(),
      format: .init(timeZone: .current)
    ) {
      $0.continuousClock = clock
      $0.date = DateGenerator {
        let (seconds, attoseconds) = elapsed.value.components
        return start.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
      }
      $0.soundClient = SoundClient(playSpeakerChange: {})
    }
    await ScriptRunner(app: app, clock: clock, elapsed: elapsed, output: output).run(script)
    return 0
  }

  private static func preload(_ options: LaunchOptions) async -> Result<
    StoredStandups, StorageError
  >? {
    guard options.open != nil || (options.restoresSession && options.sessionFile != nil) else {
      return nil
    }
    do {
      return .success(try await StorageClient.file(at: options.dataFile).load())
    } catch let error as StorageError {
      return .failure(error)
    } catch {
      let problem = FileProblem(
        path: options.dataFile.path, reason: .other("\(error)"), technicalDetail: "\(error)")
      return .failure(.unreadable(problem))
    }
  }

  private static func launchScreens(
    _ options: LaunchOptions,
    stored: Result<StoredStandups, StorageError>?
  ) throws(LaunchError) -> LaunchScreens {
    guard let stored else { return LaunchScreens(path: [], notice: nil) }
    return try LaunchScreens(options: options, stored: stored)
  }

  private static func makeApp(
    _ options: LaunchOptions,
    screens: LaunchScreens,
    transcript: TypedTranscript,
    format: TerminalFormat,
    dependencies: @escaping (inout DependencyValues) -> Void
  ) -> TerminalApp {
    let dataFile = options.dataFile
    let store = Store(initialState: AppFeature.State(path: StackState(screens.path))) {
      AppFeature()
    } withDependencies: {
      $0.storageClient = .file(at: dataFile)
      $0.speechClient = transcript.client
      $0.uuid = .init { UUID() }
      dependencies(&$0)
    }
    let app = TerminalApp(store: store, transcript: transcript, format: format)
    app.notice = screens.notice
    return app
  }
}
