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

/// Nothing a person types or saves is lost at the keyboard: keys typed through a screen change
/// they did not make, destructive keys, a meeting's unfinished line, quitting with changes that
/// could not be saved. Each runs `standups --script` as a user's script would.
@Suite(.serialized)
struct NothingLostTests {
  static let now = "2026-11-22T09:30:00Z"

  @Test func typingThroughAMeetingsEndActsOnNothingBehindIt() async throws {
    let folder = try TemporaryFolder()
    // NB: Typed on the standup's screen, "and done" would delete both past meetings (each d)
    // and open the edit form (e).
    let run = try await runScript(
      """
      s
      enter
      s
      type "first line"
      enter
      wait 60s
      type "and done"
      screen
      wait 1s
      q
      """, in: folder)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output.contains("Ignored 8 keys typed as the screen changed"))
    let design = try #require(try await stored(in: folder)[id: Standup.mock.id])
    #expect(
      design.meetings.map(\.transcript) == ["first line", Standup.mock.meetings[0].transcript])
  }

  @Test func aKeyTypedAsTheLoadAlertAppearsAnswersNothing() async throws {
    let folder = try TemporaryFolder()
    let corrupt = Data(#"{"formatVersion": 1, "standups": [{"title": 42}]}"#.utf8)
    try corrupt.write(to: folder.path("standups.sqlite"))
    let run = try await runScript("enter\nscreen\n", in: folder)
    #expect(run.output.contains("Data failed to load"), "the alert is still up")
    #expect(try Data(contentsOf: folder.path("standups.sqlite")) == corrupt)
    #expect(try backups(in: folder).isEmpty)
  }

  @Test func deletingAPastMeetingFromItsStandupAsksAndEnterKeepsIt() async throws {
    let folder = try TemporaryFolder()
    try await makeDatabase(
      at: folder.path("standups.sqlite"), holding: [.mock], environment: folder.environment)
    let asked = try await runScript("enter\nd\nscreen\nenter\nq\n", in: folder)
    #expect(asked.output.contains("Delete this meeting?"))
    #expect(asked.output.contains("[ Cancel ]"), "the harmless button is the default")
    #expect(try await stored(in: folder)[id: Standup.mock.id]?.meetings.count == 1)

    let deleted = try await runScript("enter\nd\nd\nq\n", in: folder)
    #expect(deleted.status == 0)
    #expect(try await stored(in: folder)[id: Standup.mock.id]?.meetings.isEmpty == true)
  }

  @Test(arguments: ["wait 60s", "ctrl-e\ns"])
  func aMeetingKeepsTheLineBeingTypedWhenItEnds(ending: String) async throws {
    let folder = try TemporaryFolder()
    let run = try await runScript(
      """
      s
      enter
      s
      type "Blob: shipped"
      enter
      type "Blob Jr: almost"
      \(ending)
      wait 1s
      q
      """, in: folder)
    #expect(run.status == 0, "\(run.errors)")
    let design = try #require(try await stored(in: folder)[id: Standup.mock.id])
    #expect(design.meetings.first?.transcript == "Blob: shipped\nBlob Jr: almost")
  }

  @Test func quittingAfterContinuingWithoutSavingAsksAndKeepsARecoveryFile() async throws {
    let folder = try TemporaryFolder()
    let corrupt = Data("{ not standups".utf8)
    try corrupt.write(to: folder.path("standups.sqlite"))
    let run = try await runScript(
      """
      wait 1s
      enter
      a
      type "Retro"
      enter
      q
      screen
      """, in: folder)
    #expect(run.output.contains("Quit with unsaved changes?"))
    #expect(run.status == 74)
    #expect(try Data(contentsOf: folder.path("standups.sqlite")) == corrupt)
    let recovered = try #require(try recoveryFiles(in: folder).first)
    #expect(run.errors.contains(recovered.path))
    #expect(
      try StandupsFile.decode(Data(contentsOf: recovered)).standups.map(\.title) == ["Retro"])

    let next = try await runScript("screen\n", in: folder)
    #expect(next.output.contains("Not saved last time:"))

    let imported = try await runStandupsAndWait(
      ["import", recovered.path, "--data-file", folder.path("elsewhere.sqlite").path],
      environment: folder.environment)
    #expect(imported.status == 0, "the recovery file is what `standups import` takes")
    #expect(
      try await storedStandups(at: folder.path("elsewhere.sqlite"), environment: folder.environment)
        .map(\.title) == ["Retro"])
  }

  @Test func aDataFileArgumentThatNamesNoFileIsAUsageErrorAndTouchesNothing() async throws {
    let folder = try TemporaryFolder()
    let directory = folder.path("a folder")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: directory.appendingPathComponent("inside.txt"))
    let file = folder.path("a file")
    try Data("keep".utf8).write(to: file)
    let pipe = folder.path("a pipe")
    #expect(mkfifo(pipe.path, 0o600) == 0)

    for (path, words) in [
      (directory.path, "it is a folder, not a file"),
      (pipe.path, "it is a named pipe, not a file"),
      (
        file.appendingPathComponent("standups.sqlite").path,
        "\(file.path) is a file, where a folder"
      ),
      ("", "--data-file needs the path of a file"),
    ] {
      let run = try await runStandups(
        ["--script", "-", "--data-file", path], input: "wait 1s\nenter\ns\nq\n",
        environment: folder.environment)
      #expect(run.status == 64, "\(path)")
      #expect(run.errors.contains(words), "\(path): \(run.errors)")
    }
    #expect(
      try Data(contentsOf: directory.appendingPathComponent("inside.txt")) == Data("keep".utf8))
    #expect(try Data(contentsOf: file) == Data("keep".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
        "a file", "a folder", "a pipe", "tmp",
      ])
  }

  @Test func aFolderAtTheDefaultDataPathIsNeverMovedAndNothingIsWrittenIntoIt() async throws {
    let folder = try TemporaryFolder()
    let inside = folder.dataFile.appendingPathComponent("notes.txt")
    try FileManager.default.createDirectory(
      at: folder.dataFile, withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: inside)

    let run = try await runStandups(
      ["--script", "-"],
      input: "screen\nwait 1s\nenter\na\ntype \"Retro\"\nenter\nq\nwait 1s\nq\n",
      environment: folder.environment)
    #expect(run.output.contains("Standups cannot be saved"))
    #expect(run.output.contains("it is a folder"))
    #expect(!run.output.contains("Keep it aside"), "nothing offers to move the folder")
    #expect(try Data(contentsOf: inside) == Data("mine".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.dataFile.path) == ["notes.txt"])
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: folder.dataFile.deletingLastPathComponent().path) == ["standups.sqlite"])
    #expect(run.status == 74, "Retro could not be saved: \(run.errors)")
    #expect(try recoveryFiles(in: folder).count == 1)
  }

  /// Runs `script` on `standups.sqlite` in `folder`, starting at ``now``.
  private func runScript(_ script: String, in folder: borrowing TemporaryFolder) async throws
    -> Run
  {
    try await runStandups(
      ["--script", "-", "--data-file", folder.path("standups.sqlite").path, "--now", Self.now],
      input: script, environment: folder.environment)
  }

  private func stored(in folder: borrowing TemporaryFolder) async throws -> IdentifiedArrayOf<
    Standup
  > {
    try await storedStandups(at: folder.path("standups.sqlite"), environment: folder.environment)
  }

  private func backups(in folder: borrowing TemporaryFolder) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
      .filter { $0.hasPrefix("standups.backup-") }
  }
}
