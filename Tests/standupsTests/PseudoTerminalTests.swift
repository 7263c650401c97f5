import Foundation
import Models
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The app on a real pseudo-terminal: what a person sees and does, and what is left behind.
@Suite(.serialized)
struct PseudoTerminalTests {
  @Test func addAStandupAndQuit() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    #expect(terminal.output.hasPrefix("\u{1B}[?1049h"), "the app draws on the alternate screen")

    terminal.type("a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("Retro\r")
    #expect(await terminal.read(untilItShows: "1 person"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
    #expect(
      terminal.output.hasSuffix("\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"),
      "the app stops marking pastes, shows the cursor and leaves the alternate screen last")

    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment).map(\.title)
        == ["Retro"])
  }

  /// An issue the code reports while the app draws goes to the log in the state folder; the
  /// screen says only that something was logged, and where, until the user puts that away.
  @Test func aDiagnosticGoesToTheLogNeverOverTheScreen() async throws {
    let folder = try TemporaryFolder()
    let log = folder.url.appendingPathComponent("state/standups/standups.log")
    let terminal = try PseudoTerminal(
      ["--report-issue", "A diagnostic for developers"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    #expect(await terminal.read(untilItShows: "the details are in"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
    #expect(!terminal.output.contains("A diagnostic for developers"))
    let logged = try String(contentsOf: log, encoding: .utf8)
    #expect(logged.contains("A diagnostic for developers"))
  }

  /// A state folder that is a file can hold no log: the screen says that the details could not
  /// be kept, and why, and names no log that cannot exist.
  @Test func aStateFolderThatIsAFileIsNeverNamedAsHoldingTheLog() async throws {
    let folder = try TemporaryFolder()
    let state = folder.url.appendingPathComponent("state/standups")
    try FileManager.default.createDirectory(
      at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data().write(to: state)
    let terminal = try PseudoTerminal(
      ["--report-issue", "A diagnostic for developers"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    // NB: Wide enough that the notice is one row, and its text one run of the output.
    let mark = terminal.mark
    terminal.resize(columns: 400, rows: 24)
    var notice = ""
    #expect(
      await terminal.read(from: mark) {
        notice = $0
        return $0.contains("(^X puts this away)")
      })
    #expect(
      notice.contains(
        "Something went wrong inside Standups, and nothing was lost; its details could not be "
          + "kept: a folder on its path is a file (\(state.path))."))
    #expect(!notice.contains("standups.log"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
    #expect(!terminal.output.contains("A diagnostic for developers"))
  }

  @Test func aPasteGoesIntoTheFieldAndPressesNoKey() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    #expect(terminal.output.contains("\u{1B}[?2004h"), "the app asks the terminal to mark pastes")
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Engineering"))
    // NB: Typed, the pasted keys would delete the selected standup: "d", then Enter to confirm.
    terminal.type("\u{1B}[200~d\r\u{1B}[201~a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("\u{1B}[200~Weekly\nsync\u{1B}[201~\r")
    #expect(await terminal.read(untilItShows: "Weekly sync"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)

    let titles = try await storedStandups(at: folder.dataFile, environment: folder.environment)
      .map(\.title)
    let samples = [Standup.mock, .engineeringMock, .productMock].map(\.title)
    #expect(titles.sorted() == (samples + ["Weekly sync"]).sorted())
  }

  @Test func aResizeRedrawsTheWholeScreenAtTheNewSize() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "or s to load the sample standups."))
    let beforeResize = terminal.mark
    terminal.resize(columns: 30, rows: 10)
    #expect(await terminal.read(from: beforeResize, untilItShows: "\u{1B}[2J"))
    #expect(await terminal.read(from: beforeResize, untilItShows: "or s to load the sample sta…"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
  }

  @Test func theScreensOpenAtQuitReopenAndFreshStartsOnTheList() async throws {
    let folder = try TemporaryFolder()
    do {
      let terminal = try PseudoTerminal(environment: folder.environment)
      #expect(await terminal.read(untilItShows: "No standups yet."))
      terminal.type("s")
      #expect(await terminal.read(untilItShows: "Engineering"))
      terminal.type("\r")
      #expect(await terminal.read(untilItShows: "Past meetings (1)"))
      terminal.type("\r")
      #expect(await terminal.read(untilItShows: "Blob walked through"))
      terminal.type("q")
      #expect(await terminal.waitForExit() == 0)
    }
    let session = try String(contentsOf: folder.sessionFile, encoding: .utf8)
    #expect(session.contains("meeting"))

    do {
      let terminal = try PseudoTerminal(environment: folder.environment)
      #expect(await terminal.read(untilItShows: "Blob walked through"))
      terminal.type("\u{1B}")
      #expect(await terminal.read(untilItShows: "Past meetings (1)"))
      terminal.type("q")
      #expect(await terminal.waitForExit() == 0)
    }
    do {
      let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
      #expect(await terminal.read(untilItShows: "Engineering"))
      terminal.type("q")
      #expect(await terminal.waitForExit() == 0)
      #expect(!terminal.output.contains("Past meetings"))
    }
  }

  /// A terminal that cannot move its cursor (TERM dumb, as in an editor's shell buffer; unknown,
  /// as a login sets for a line it does not know; or no TERM at all) would show every frame as
  /// a stream of escape codes.
  @Test(arguments: ["dumb", "unknown", "", nil])
  func aTerminalWithoutCursorAddressingIsToldTheAppNeedsAFullScreenOne(term: String?) async throws {
    let folder = try TemporaryFolder()
    var environment = folder.environment
    environment["TERM"] = term
    let terminal = try PseudoTerminal(environment: environment)
    #expect(await terminal.waitForExit(within: .seconds(10)) == 64)
    #expect(terminal.output.contains("standups: standups draws full screen"))
    #expect(!terminal.output.contains("\u{1B}["), "nothing drawn, the terminal never touched")
    #expect(!FileManager.default.fileExists(atPath: folder.dataFile.path))
  }

  @Test func aCorruptSessionFileDoesNotStopTheLaunch() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.sessionFile.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("{ not a session".utf8).write(to: folder.sessionFile)
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    #expect(await terminal.read(untilItShows: "The open screens were not restored"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
  }

  @Test(arguments: [SIGTERM, SIGHUP, SIGQUIT])
  func beingStoppedDuringAMeetingKeepsEverythingTyped(signal: Int32) async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Engineering"))
    terminal.type("\u{1B}[B\r")
    #expect(await terminal.read(untilItShows: "No meetings yet"))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Transcript"))
    let beforeEnter = terminal.mark
    terminal.type("Blob: the build is green\r")
    #expect(await terminal.read(from: beforeEnter, untilItShows: "Blob: the build is green"))
    let beforeLine = terminal.mark
    terminal.type("Blob Jr: almost")
    #expect(await terminal.read(from: beforeLine, untilItShows: "almost"))

    terminal.send(signal)
    // NB: That stopping waits on no clock is `StoppingTests`' to show, on a test clock.
    #expect(await terminal.waitForExit() == 0, "exits once it has saved")
    #expect(terminal.output.hasSuffix("\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"))
    let engineering = try await storedStandups(
      at: folder.dataFile, environment: folder.environment)[
        id: Standup.engineeringMock.id]
    #expect(
      engineering?.meetings.map(\.transcript) == ["Blob: the build is green\nBlob Jr: almost"],
      "the line being typed is the transcript's last")
  }

  /// Ctrl-Z (a key in raw mode) and SIGTSTP from outside both give the shell its terminal back
  /// and stop the app; continuing it (the shell's `fg` sends SIGCONT) takes the terminal again
  /// and redraws the screen the shell wrote over.
  @Test(arguments: ["ctrl-z", "SIGTSTP"])
  func suspendingGivesTheTerminalBackAndContinuingRedrawsIt(how: String) async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    #expect(!terminal.echoesInput, "raw mode")

    let beforeSuspending = terminal.mark
    if how == "ctrl-z" { terminal.type("\u{1A}") } else { terminal.send(SIGTSTP) }
    #expect(
      await terminal.read(from: beforeSuspending, untilItShows: "\u{1B}[?25h\u{1B}[?1049l"),
      "the cursor shown and the alternate screen left, as when quitting")
    #expect(await terminal.waitUntilStopped(), "the app stops")
    #expect(terminal.echoesInput, "the shell's line settings are back")

    let beforeContinuing = terminal.mark
    terminal.send(SIGCONT)
    #expect(
      await terminal.read(from: beforeContinuing) {
        $0.contains("\u{1B}[?1049h") && $0.contains("No standups yet.")
      }, "the whole screen drawn again on the alternate screen")
    #expect(!terminal.echoesInput, "raw mode again")
    terminal.type("a")
    #expect(await terminal.read(from: beforeContinuing, untilItShows: "New standup"), "keys work")
    terminal.type("\u{1B}")
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
  }

  @Test func ctrlCDuringAMeetingAsksFirst() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    terminal.type("s\r")
    #expect(await terminal.read(untilItShows: "Past meetings (1)"))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Transcript"))
    terminal.type("\u{03}")
    #expect(await terminal.read(untilItShows: "End meeting?"))
    terminal.type("d")
    #expect(await terminal.waitForExit() == 0)
    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment)[
        id: Standup.mock.id]?.meetings.count == 1)
  }

  @Test func quittingWithChangesThatCannotBeSavedAsksThenKeepsThemInARecoveryFile() async throws {
    let folder = try TemporaryFolder()
    let (data, original) = try await folder.readOnlyDataFile(holding: [.engineeringMock])

    let terminal = try PseudoTerminal(["--data-file", data.path], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "Changes will not be saved"))
    await terminal.pauseToReadTheScreen()
    terminal.type("\r")
    terminal.type("a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("Retro\r")
    #expect(await terminal.read(untilItShows: "Retro"))
    let beforeQuit = terminal.mark
    terminal.type("q")
    #expect(await terminal.read(from: beforeQuit, untilItShows: "Quit with unsaved changes?"))
    await terminal.pauseToReadTheScreen()
    // NB: Enter stays: the app is still there to ask again.
    terminal.type("\r")

    let beforeSecondQuit = terminal.mark
    terminal.type("q")
    #expect(await terminal.read(from: beforeSecondQuit, untilItShows: "Quit with unsaved changes?"))
    await terminal.pauseToReadTheScreen()
    terminal.type("q")
    #expect(await terminal.waitForExit() == 74)
    #expect(try Data(contentsOf: data) == original)
    let recovered = try #require(try recoveryFiles(in: folder).first)
    #expect(terminal.output.contains(recovered.lastPathComponent))
    #expect(
      try StandupsFile.decode(Data(contentsOf: recovered)).standups.map(\.title)
        == ["Engineering", "Retro"])
  }
}
