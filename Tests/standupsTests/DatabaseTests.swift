import Foundation
import IdentifiedCollections
import Models
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a user's machine does to the database: the app killed at any moment, another instance
/// changing a standup under an open form, a database file marked read-only. Each runs the real
/// executable on a real database.
@Suite(.serialized)
struct DatabaseTests {
  @Test func killedMidMeetingTheNextLaunchKeepsEveryLineAndSaysSo() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Engineering"))
    terminal.type("\u{1B}[B\r")
    #expect(await terminal.read(untilItShows: "No meetings yet"))
    terminal.type("s")
    #expect(await terminal.read(untilItShows: "Transcript"))
    for line in ["Blob: the build is green", "Blob Jr: the parser is done"] {
      let before = terminal.mark
      terminal.type(line + "\r")
      #expect(await terminal.read(from: before, untilItShows: String(line.suffix(12))))
    }
    // NB: Killed once both lines are in the database: that a line is written as soon as it is
    // typed, with no timer, is `WritingTests`' to show; this shows that what is written survives.
    #expect(
      await terminal.read { _ in
        (try? meetingsInProgress(at: folder.dataFile))
          == ["Blob: the build is green\nBlob Jr: the parser is done"]
      })

    terminal.send(SIGKILL)
    _ = await terminal.waitForExit()

    let next = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await next.read(untilItShows: "stopped before it ended"))
    next.type("q")
    #expect(await next.waitForExit() == 0)
    let engineering = try await storedStandups(
      at: folder.dataFile, environment: folder.environment)[
        id: Standup.engineeringMock.id]
    #expect(
      engineering?.meetings.map(\.transcript)
        == ["Blob: the build is green\nBlob Jr: the parser is done"])

    let third = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await third.read(untilItShows: "Engineering"))
    await third.pause(for: .milliseconds(300))
    #expect(!third.output.contains("stopped before it ended"), "said once")
    third.type("q")
    #expect(await third.waitForExit() == 0)
  }

  @Test func killedMomentsAfterASecondChangeKeepsBoth() async throws {
    let folder = try TemporaryFolder()
    let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await terminal.read(untilItShows: "No standups yet."))
    for title in ["First", "Second"] {
      terminal.type("a")
      #expect(await terminal.read(untilItShows: "New standup"))
      let before = terminal.mark
      terminal.type(title + "\r")
      #expect(await terminal.read(from: before, untilItShows: title))
    }
    #expect(
      await terminal.read { _ in
        (try? await storedStandups(at: folder.dataFile, environment: folder.environment))?
          .map(\.title) == ["First", "Second"]
      })

    terminal.send(SIGKILL)
    _ = await terminal.waitForExit()

    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment).map(\.title)
        == ["First", "Second"])
  }

  @Test func killsDuringWritesLeaveNoTemporaryFileAndAWholeDatabase() async throws {
    let folder = try TemporaryFolder()
    let many = IdentifiedArray(
      uniqueElements: (0..<2000).map { index in
        Standup(
          id: Standup.ID(
            UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", index))")!),
          attendees: Standup.mock.attendees, meetings: Standup.mock.meetings,
          title: "Standup \(index)")
      })
    try await makeDatabase(at: folder.dataFile, holding: many, environment: folder.environment)
    for delay in [0, 1, 3, 10, 30] {
      let terminal = try PseudoTerminal(["--fresh"], environment: folder.environment)
      #expect(await terminal.read(untilItShows: "Standup 0"))
      terminal.type("s")
      await terminal.pause(for: .milliseconds(delay))
      terminal.send(SIGKILL)
      _ = await terminal.waitForExit()
    }

    let names = try FileManager.default.contentsOfDirectory(
      atPath: folder.dataFile.deletingLastPathComponent().path)
    #expect(names.allSatisfy { $0.hasPrefix("standups.sqlite") }, "\(names)")
    #expect(!names.contains { $0.hasSuffix(".tmp") || $0.contains(".creating-") })
    let stored = try await storedStandups(at: folder.dataFile, environment: folder.environment)
    #expect(stored.count == 2000 || stored.count == 2003, "all of a change, or none of it")
  }

  /// The repro of issue 38: an instance opens a standup's form; another adds Carol to it; the
  /// first then changes only the title. Carol stays.
  @Test func aFormChangesOnlyWhatItsUserChangedWhateverAnotherInstanceDidMeanwhile() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(at: folder.dataFile, holding: [.mock], environment: folder.environment)
    let editing = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await editing.read(untilItShows: "Design"))
    editing.type("\r")
    #expect(await editing.read(untilItShows: "Past meetings"))
    editing.type("e")
    #expect(await editing.read(untilItShows: "Edit standup"))

    var withCarol = Standup.mock
    withCarol.attendees.append(Attendee(id: Attendee.ID(UUID()), name: "Carol"))
    let carol = folder.path("carol.json")
    try StandupsFile(standups: [withCarol]).encoded().write(to: carol)
    let added = try await runStandupsAndWait(
      ["import", carol.path, "--data-file", folder.dataFile.path], environment: folder.environment)
    #expect(added.status == 0, "\(added.errors)")
    await editing.pause(for: .seconds(3))

    let beforeEnter = editing.mark
    editing.type(" review\r")
    #expect(await editing.read(from: beforeEnter, untilItShows: "review"))
    editing.type("q")
    #expect(await editing.waitForExit() == 0)

    let design = try await storedStandups(at: folder.dataFile, environment: folder.environment)[
      id: Standup.mock.id]
    #expect(design?.title == "Design review")
    #expect(design?.attendees.map(\.name) == withCarol.attendees.map(\.name))
  }

  @Test func aReadOnlyDatabaseIsNeitherWrittenNorChangedAndTheUserIsTold() async throws {
    let folder = try TemporaryFolder()
    let database = folder.path("standups.sqlite")
    try await makeDatabase(
      at: database, holding: [.engineeringMock], environment: folder.environment)
    #expect(chmod(database.path, 0o444) == 0)
    let before = try Data(contentsOf: database)
    let namesBefore = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)

    let run = try await runStandups(
      ["--script", "-", "--data-file", database.path],
      input: "screen\nwait 1s\nenter\na\ntype \"Retro\"\nenter\nscreen\nq\n",
      environment: folder.environment)

    #expect(run.output.contains("Changes will not be saved"))
    #expect(run.output.contains("is marked read-only"))
    #expect(run.output.contains("Retro"), "the change is kept on screen")
    #expect(run.status == 74)
    #expect(run.errors.contains("bring them back with: standups import"))
    #expect(try Data(contentsOf: database) == before)
    #expect(
      (try FileManager.default.attributesOfItem(atPath: database.path)[.posixPermissions] as? Int)
        == 0o444)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        == (namesBefore + ["state"]).sorted())
    let recovered = try #require(try recoveryFiles(in: folder).first)
    #expect(
      try StandupsFile.decode(Data(contentsOf: recovered)).standups.map(\.title)
        == ["Engineering", "Retro"])
  }

  @Test func exportWritesTheFileFormatAndImportBringsItBackLosingNothing() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.dataFile, holding: [.mock, .engineeringMock], environment: folder.environment)
    let file = folder.path("export.json")

    let exported = try await runStandupsAndWait(
      ["export", "--output", file.path], environment: folder.environment)
    #expect(exported.status == 0, "\(exported.errors)")
    #expect(
      try StandupsFile.decode(Data(contentsOf: file)).standups == [.mock, .engineeringMock])

    let again = try await runStandupsAndWait(
      ["import", file.path, "--data-file", folder.path("other.sqlite").path],
      environment: folder.environment)
    #expect(again.status == 0)
    #expect(again.output.contains(#"Added 2 standups: "Design", "Engineering"."#))
    let twice = try await runStandupsAndWait(
      ["import", file.path, "--data-file", folder.path("other.sqlite").path],
      environment: folder.environment)
    #expect(twice.output.contains("2 standups already there, unchanged."))

    try Data("{ nope".utf8).write(to: folder.path("bad.json"))
    let malformed = try await runStandupsAndWait(
      ["import", folder.path("bad.json").path], environment: folder.environment)
    #expect(malformed.status == 65)
    #expect(malformed.errors.contains("Nothing was imported"))
    let missing = try await runStandupsAndWait(
      ["import", folder.path("missing.json").path], environment: folder.environment)
    #expect(missing.status == 66)
    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment)
        == [.mock, .engineeringMock])
  }

  @Test func theDataFileOfAnEarlierReleaseIsBroughtInOnceAndLeftAsItWas() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.earlierReleaseDataFile.deletingLastPathComponent(),
      withIntermediateDirectories: true)
    let bytes = try StandupsFile(standups: [.mock]).encoded()
    try bytes.write(to: folder.earlierReleaseDataFile)

    let first = try await runStandups(
      ["--script", "-"], input: "screen\n", environment: folder.environment)
    let second = try await runStandups(
      ["--script", "-"], input: "screen\n", environment: folder.environment)

    #expect(first.status == 0)
    #expect(first.output.contains("Brought in the standups of"))
    #expect(!second.output.contains("Brought in"), "told once")
    #expect(
      try await storedStandups(at: folder.dataFile, environment: folder.environment) == [.mock])
    #expect(try Data(contentsOf: folder.earlierReleaseDataFile) == bytes)
  }

  /// A file of many standups with long titles: the report names twenty, each title cut to fit a
  /// line, and counts the rest.
  @Test func importNamesAtMostTwentyStandupsEachOnALine() async throws {
    let folder = try TemporaryFolder()
    let standups = IdentifiedArray(
      uniqueElements: (0..<25).map { number in
        Standup(
          id: Standup.ID(UUID()),
          title: "Standup \(number) " + String(repeating: "and its long title ", count: 5_000))
      })
    let file = folder.path("many.json")
    try StandupsFile(standups: standups).encoded().write(to: file)

    let run = try await runStandupsAndWait(
      ["import", file.path, "--data-file", folder.path("standups.sqlite").path],
      environment: folder.environment)

    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("Added 25 standups: \"Standup 0 and its long title "))
    #expect(run.output.contains(", and 5 more."))
    let quoted = run.output.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }
    #expect(quoted.count == 20)
    #expect(quoted.allSatisfy { $0.element.count <= 60 && $0.element.hasSuffix("…") })
  }

  /// What stands where an earlier release's data file should be, and cannot be read, is left as
  /// it was; the status line names it whole, in the command that brings it in once mended.
  @Test func anEarlierReleasesFileThatCannotBeReadIsNamedWhole() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.earlierReleaseDataFile, withIntermediateDirectories: true)

    let run = try await runStandups(
      ["--script", "-"], input: "screen\n", environment: folder.environment)

    #expect(run.status == 0, "\(run.errors)")
    let status = run.output.split(separator: "\n").drop { !$0.contains("The standups of") }
      .prefix { !$0.contains("^X put the notice away") }
      .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    #expect(status.contains("once mended: standups import "))
    // NB: A path is broken between characters where it does not fit a row.
    #expect(
      status.replacingOccurrences(of: " ", with: "")
        .contains("standupsimport" + folder.earlierReleaseDataFile.path + "(^Xputsthisaway)"))
  }
}
