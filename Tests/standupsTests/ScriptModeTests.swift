import Foundation
import IdentifiedCollections
import Models
import SnapshotTesting
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `standups --script`: the same store, views and key maps, driven from a file, on a virtual
/// clock.
@Suite(.snapshots(record: .missing))
struct ScriptModeTests {
  static let now = "2026-11-22T09:30:00Z"

  @Test func aWholeMeetingFromAScript() async throws {
    let folder = try TemporaryFolder()
    let script = """
      # Add a standup with three attendees.
      a
      type "Retro"
      tab
      tab
      tab
      type "Blob"
      ctrl-a
      type "Blob Jr"
      ctrl-a
      type "Blob Sr"
      screen
      enter
      screen
      # Open it and hold a meeting.
      enter
      screen
      s
      type "Blob: shipped the release"
      enter
      type "Blob Jr: reviewing the parser"
      enter
      wait 2m
      screen
      wait 3m
      screen
      q
      """
    let run = try await runStandups(
      ["--script", "-", "--data-file", folder.path("standups.sqlite").path, "--now", Self.now],
      input: script, environment: folder.environment)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.errors.isEmpty)
    assertSnapshot(of: run.output, as: .lines)

    let stored = try await storedStandups(
      at: folder.path("standups.sqlite"), environment: folder.environment)
    let standup = try #require(stored.first)
    #expect(standup.title == "Retro")
    #expect(standup.attendees.map(\.name) == ["Blob", "Blob Jr", "Blob Sr"])
    #expect(
      standup.meetings.map(\.transcript)
        == ["Blob: shipped the release\nBlob Jr: reviewing the parser"])
    #expect(
      standup.meetings.first?.date
        == ISO8601DateFormatter().date(from: Self.now)!.addingTimeInterval(5 * 60))
  }

  @Test func openingAStandupByTitle() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    try await makeDatabase(
      at: data, holding: [.mock, .engineeringMock], environment: folder.environment)
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path, "--open", "ENGINEERING"],
      input: "screen 40x12\n", environment: folder.environment)
    #expect(run.status == 0)
    #expect(run.output.contains("Standups › Engineering"))
  }

  @Test func openingAStandupThatIsNotThereNamesTheOnesThatAre() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    try await makeDatabase(
      at: data, holding: [.mock, .engineeringMock], environment: folder.environment)
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path, "--open", "Marketing"],
      input: "screen\n", environment: folder.environment)
    #expect(run.status == 64)
    #expect(run.output.isEmpty)
    #expect(
      run.errors == """
        standups: No standup is called "Marketing". The standups are:
          "Design"
          "Engineering"

        """)
  }

  @Test func anUnknownStandupListsAScreenfulOfTitlesWithControlCharactersEscaped() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let titles =
      ["Clear\u{1B}[2J the screen", "Bell\u{7}", "Weekly\tsync", "Say \"hi\" \\ bye", "   "]
      + (1...30).map { "Team \($0)" }
    let standups = titles.enumerated().map { index, title in
      Standup(
        id: Standup.ID(UUID(uuidString: "00000000-0000-0000-0000-\(100_000_000_000 + index)")!),
        title: title)
    }
    try await makeDatabase(
      at: data, holding: IdentifiedArray(uniqueElements: standups), environment: folder.environment)
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path, "--open", "Mark\u{1B}]0;x\u{7}eting"],
      input: "screen\n", environment: folder.environment)
    #expect(run.status == 64)
    #expect(!run.errors.contains("\u{1B}") && !run.errors.contains("\u{7}"))
    let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.first
        == #"standups: No standup is called "Mark\u{1B}]0;x\u{7}eting". The standups are:"#)
    #expect(lines.count <= 23, "a screenful: the sentence, at most 20 titles, the rest counted")
    #expect(
      lines.prefix(6) == [
        lines[0], #"  "Clear\u{1B}[2J the screen""#, #"  "Bell\u{7}""#, #"  "Weekly sync""#,
        #"  "Say \"hi\" \\ bye""#, #"  "Untitled""#,
      ])
    #expect(lines.suffix(3) == [#"  "Team 15""#, "  and 15 more.", ""])
  }

  @Test func anOpenThatMatchesTitlesEqualButForCaseIsAUsageErrorUnlessOneIsExact() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let shouting = Standup(
      id: Standup.ID(UUID(uuidString: "00000000-0000-0000-0000-00000000000D")!),
      attendees: Standup.mock.attendees, title: "DESIGN")
    try await makeDatabase(
      at: data, holding: [.mock, shouting, .engineeringMock], environment: folder.environment)

    let ambiguous = try await runStandups(
      ["--script", "-", "--data-file", data.path, "--open", "design"],
      input: "screen 40x12\n", environment: folder.environment)
    #expect(ambiguous.status == 64)
    #expect(ambiguous.output.isEmpty)
    #expect(ambiguous.errors.contains(#"standups: "design" could be any of 2 standups"#))
    #expect(ambiguous.errors.contains(#"  "Design"  \#(Standup.mock.id.rawValue)"#))
    #expect(ambiguous.errors.contains(#"  "DESIGN"  00000000-0000-0000-0000-00000000000D"#))

    for title in ["Design", "DESIGN"] {
      let exact = try await runStandups(
        ["--script", "-", "--data-file", data.path, "--open", title],
        input: "screen 40x12\n", environment: folder.environment)
      #expect(exact.status == 0, "\(exact.errors)")
      #expect(exact.output.contains("Standups › \(title)"))
    }
  }

  @Test func aMalformedScriptLineIsNamedAndNothingRuns() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "a\ntype \"Retro\"\nwait forever\nenter\n", environment: folder.environment)
    #expect(run.status == 65)
    #expect(run.errors.contains("Script line 3 is not a command: wait forever"))
    #expect(!FileManager.default.fileExists(atPath: data.path))
  }

  @Test func everyMalformedLineIsNamedBeforeAnythingRuns() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "a\nwait forever\ntype \"Retro\"\nenterr\n\nscreen 0x0\nenter\n",
      environment: folder.environment)
    #expect(run.status == 65)
    #expect(
      run.errors == """
        standups: Script lines 2, 4 and 6 are not commands:
          2: wait forever
          4: enterr
          6: screen 0x0

        """)
    #expect(run.output.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: data.path))
  }

  @Test func aTrailingCommentIsSkippedAndAHashInQuotesIsText() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let script = """
      a        # add a standup
      type "Retro #1 # of 2"  # its title, # and all
      enter\t# save it
      q # quit
      """
    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path], input: script, environment: folder.environment)
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      try await storedStandups(at: data, environment: folder.environment).map(\.title)
        == ["Retro #1 # of 2"])
  }

  @Test func usageErrorsExit64() async throws {
    let folder = try TemporaryFolder()
    let run = try await runStandups(["--no-such-flag"], environment: folder.environment)
    #expect(run.status == 64)
    #expect(run.errors.contains("Unknown option '--no-such-flag'"))
  }

  @Test func withoutATerminalTheAppSaysToUseAScript() async throws {
    let folder = try TemporaryFolder()
    let run = try await runStandups([], environment: folder.environment)
    #expect(run.status == 64)
    #expect(run.errors.contains("--script"))
  }

  @Test func dataThatIsNotADatabaseIsShownAndKeptUntilTheUserActs() async throws {
    let folder = try TemporaryFolder()
    let data = folder.path("standups.sqlite")
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"title": 42}]}"#.utf8)
    try corrupt.write(to: data)

    let looked = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "screen\na\nesc\nq\n", environment: folder.environment)
    #expect(looked.status == 0)
    #expect(looked.output.contains("Data failed to load"))
    #expect(try Data(contentsOf: data) == corrupt)

    // NB: The alert appears as the script starts; a key then is typed ahead of it, and only a
    // key after a pause answers it.
    let acted = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "k\nwait 1s\nk\nscreen\nq\n", environment: folder.environment)
    #expect(acted.status == 0)
    #expect(acted.output.contains("Engineering"))
    let backups = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .filter { $0.hasPrefix("standups.backup-") }
    #expect(backups.count == 1)
    #expect(try Data(contentsOf: folder.path(backups[0])) == corrupt)
    #expect(
      try await storedStandups(at: data, environment: folder.environment).map(\.title)
        == ["Design", "Engineering", "Product"])
  }

  @Test func aFolderThatCannotBeWrittenLeavesTheDatabaseAndSaysSo() async throws {
    let folder = try TemporaryFolder()
    let (data, original) = try await folder.readOnlyDataFile(holding: [.engineeringMock])

    let run = try await runStandups(
      ["--script", "-", "--data-file", data.path],
      input: "screen\nwait 1s\nenter\na\ntype \"Retro\"\nenter\nscreen\nq\n",
      environment: folder.environment)
    #expect(run.output.contains("Changes will not be saved"))
    #expect(run.output.contains("Retro"))
    #expect(run.output.contains("⚠ Read-only: The folder"))
    #expect(try Data(contentsOf: data) == original)
    #expect(run.status == 74, "changes that could not be saved are not a success")
    let recovered = try recoveryFiles(in: folder)
    #expect(recovered.count == 1)
    #expect(run.errors.contains(try #require(recovered.first).path))
    #expect(
      try StandupsFile.decode(Data(contentsOf: #require(recovered.first))).standups.map(\.title)
        == ["Engineering", "Retro"])
  }
}

/// The recovery files the app left in the test's state folder.
func recoveryFiles(in folder: borrowing TemporaryFolder) throws -> [URL] {
  let state = folder.url.appendingPathComponent("state/standups")
  guard FileManager.default.fileExists(atPath: state.path) else { return [] }
  return try FileManager.default.contentsOfDirectory(atPath: state.path)
    .filter { $0.hasPrefix("unsaved-standups-") }.sorted()
    .map { state.appendingPathComponent($0) }
}
