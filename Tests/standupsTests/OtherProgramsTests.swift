import Foundation
import IdentifiedCollections
import Models
import StorageTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Another program on the same database while the app runs: one holding its write lock (as
/// `sqlite3` does after `BEGIN EXCLUSIVE`), one moving the file away. Each runs the real
/// executable in a pseudo-terminal, with the lock held by this test process.
@Suite(.serialized)
struct OtherProgramsTests {
  @Test func launchedWhileTheDatabaseIsHeldItShowsTheStandupsAndSavesOnceItIsLetGo() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.dataFile, holding: [.engineeringMock], environment: folder.environment)
    let lock = try #require(await WriteLock(onDatabaseAt: folder.dataFile.path))

    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "Engineering"), "read without the write lock")
    terminal.type("a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("Retro\r")
    #expect(
      await terminal.read(untilItShows: "Waiting for another program that holds the database"))
    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment).count == 1)

    await lock.release()
    // NB: No key is typed from here: the write is tried again on its own.
    #expect(
      await terminal.read { _ in
        (try? await storedStandups(at: folder.dataFile, environment: folder.environment))?
          .map(\.title) == ["Engineering", "Retro"]
      })
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
  }

  @Test func everyKeyTypedOnTheRecorderWhileTheDatabaseIsHeldReachesTheTranscript() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.dataFile, holding: [.engineeringMock], environment: folder.environment)
    let terminal = try PseudoTerminal(
      ["--open", "engineering", "--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No meetings yet"))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Transcript"))
    let lock = try #require(await WriteLock(onDatabaseAt: folder.dataFile.path))

    let lines = (1...6).map { "Blob: point \($0) of the plan" }
    terminal.type(lines[0] + "\r")
    #expect(
      await terminal.read(untilItShows: "Waiting for another program that holds the database"))
    for line in lines.dropFirst() {
      terminal.type(line + "\r")
    }
    #expect(await terminal.read(untilItShows: String(lines.last!.suffix(12))))
    #expect(!terminal.output.contains("Ignored"), "no alert took the keys")

    await lock.release()
    terminal.type("\u{05}")
    #expect(await terminal.read(untilItShows: "End meeting?"))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Past meetings"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)
    let engineering = try await storedStandups(
      at: folder.dataFile, environment: folder.environment)[
        id: Standup.engineeringMock.id]
    #expect(engineering?.meetings.map(\.transcript) == [lines.joined(separator: "\n")])
  }

  @Test func quittingWhileTheDatabaseIsHeldKeepsTheChangeInARecoveryFileWithoutWaitingOnIt()
    async throws
  {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.dataFile, holding: [.engineeringMock], environment: folder.environment)
    let lock = try #require(await WriteLock(onDatabaseAt: folder.dataFile.path))
    defer { Task { await lock.release() } }

    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "Engineering"))
    terminal.type("a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("Retro\r")
    #expect(
      await terminal.read(untilItShows: "Waiting for another program that holds the database"))
    terminal.type("q")
    #expect(await terminal.read(untilItShows: "Quit with unsaved changes?"))
    await terminal.pauseToReadTheScreen()
    terminal.type("q")

    // NB: The lock is still held: the app writes the recovery file rather than wait for it.
    #expect(await terminal.waitForExit() == 74)
    let recovered = try #require(try recoveryFiles(in: folder).first)
    #expect(
      try StandupsFile.decode(Data(contentsOf: recovered)).standups.map(\.title)
        == ["Engineering", "Retro"])
  }

  @Test func aDatabaseMovedAwayWhileTheAppRunsStopsSavingAndKeepsWhatFollows() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.dataFile, holding: [.engineeringMock], environment: folder.environment)
    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "Engineering"))
    let moved = folder.path("moved.sqlite")
    #expect(rename(folder.dataFile.path, moved.path) == 0)

    terminal.type("a")
    #expect(await terminal.read(untilItShows: "New standup"))
    terminal.type("Retro\r")
    #expect(await terminal.read(untilItShows: "no longer the file"))
    await terminal.pauseToReadTheScreen()
    terminal.type("\r")
    terminal.type("q")
    #expect(await terminal.read(untilItShows: "Quit with unsaved changes?"))
    await terminal.pauseToReadTheScreen()
    terminal.type("q")

    #expect(await terminal.waitForExit() == 74, "\(terminal.lastText())")
    let recovered = try #require(try recoveryFiles(in: folder).first)
    #expect(
      try StandupsFile.decode(Data(contentsOf: recovered)).standups.map(\.title)
        == ["Engineering", "Retro"])
    #expect(
      try await storedStandups(at: moved, environment: folder.environment).map(\.title) == [
        "Engineering"
      ]
    )
    #expect(
      !FileManager.default.fileExists(atPath: folder.dataFile.path), "nothing made in its place")
  }

  @Test func aCleanQuitLeavesEveryCommitInTheDatabaseFileAlone() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Engineering"))
    terminal.type("q")
    #expect(await terminal.waitForExit() == 0)

    // NB: A backup of the database file alone, as a user who copies `standups.sqlite` makes it.
    let copy = folder.path("copy.sqlite")
    try FileManager.default.copyItem(at: folder.dataFile, to: copy)
    #expect(
      try await storedStandups(at: copy, environment: folder.environment).map(\.title)
        == ["Design", "Engineering", "Product"])
  }
}
