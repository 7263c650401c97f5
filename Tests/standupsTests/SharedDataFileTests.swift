import Foundation
import Models
import Testing

/// Two instances of `standups` on one data file, each on a terminal of its own: neither writes
/// over the other, each shows what the other saved, and a deletion stays deleted.
@Suite(.serialized)
struct SharedDataFileTests {
  @Test func twoInstancesOnOneFileKeepBothOnesChangesAndShowThemToEachOther() async throws {
    let folder = try TemporaryFolder()
    let dataFile = folder.dataFile
    let environment = folder.environment
    let first = try PseudoTerminal(["--fresh"], environment: folder.environment)
    let second = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await first.read(untilItShows: "No standups yet."))
    #expect(await second.read(untilItShows: "No standups yet."))

    first.type("a")
    #expect(await first.read(untilItShows: "New standup"))
    first.type("FromA\r")
    #expect(await first.read(untilItShows: "FromA"))

    second.type("a")
    #expect(await second.read(untilItShows: "New standup"))
    let beforeAdding = second.mark
    second.type("FromB\r")
    #expect(
      await second.read(from: beforeAdding, untilItShows: "FromA"), "the second shows the first's")
    #expect(
      await first.read(untilItShows: "FromB"), "the first reads the second's change and shows it")

    // NB: The first deletes its standup; the second's next, unrelated change keeps it deleted.
    let beforeDeleting = first.mark
    first.type("d")
    #expect(await first.read(from: beforeDeleting, untilItShows: "Delete \"FromA\"?"))
    first.type("d")
    #expect(
      await first.read(until: { _ in (try? await titles(in: dataFile, environment)) == ["FromB"] }))

    second.type("a")
    #expect(await second.read(untilItShows: "New standup"))
    second.type("FromB2\r")
    #expect(
      await second.read(until: { _ in
        (try? await titles(in: dataFile, environment)) == ["FromB", "FromB2"]
      }))

    first.type("q")
    second.type("q")
    #expect(await first.waitForExit() == 0)
    #expect(await second.waitForExit() == 0)
    #expect(try await titles(in: dataFile, environment) == ["FromB", "FromB2"])
  }

  /// The repro of issue 39: an instance edits a standup's title; another deletes the standup.
  /// The first is told at once, over its form, and keeping its version stores it again with the
  /// edit.
  @Test func aStandupDeletedUnderAnOpenFormIsToldAndKeptWithTheEdit() async throws {
    let folder = try TemporaryFolder()
    let dataFile = folder.dataFile
    let environment = folder.environment
    let first = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await first.read(untilItShows: "No standups yet."))
    first.type("a")
    #expect(await first.read(untilItShows: "New standup"))
    first.type("Shared\r")
    #expect(
      await first.read(until: { _ in (try? await titles(in: dataFile, environment)) == ["Shared"] })
    )

    let second = try PseudoTerminal(["--fresh"], environment: folder.environment)
    #expect(await second.read(untilItShows: "Shared"))
    second.type("\r")
    #expect(await second.read(untilItShows: "No meetings yet"))
    second.type("e")
    #expect(await second.read(untilItShows: "Edit standup"))
    second.type(" review")

    let beforeDeleting = first.mark
    first.type("d")
    #expect(await first.read(from: beforeDeleting, untilItShows: "Delete \"Shared\"?"))
    first.type("d")
    #expect(await first.read(until: { _ in (try? await titles(in: dataFile, environment)) == [] }))

    #expect(await second.read(untilItShows: "was deleted elsewhere"), "told over the form")
    await second.pauseToReadTheScreen()
    second.type("\r")
    await second.pauseToReadTheScreen()
    second.type("\r")
    let kept = await second.read { _ in
      (try? await titles(in: dataFile, environment)) == ["Shared review"]
    }
    #expect(kept, "kept, with the edit")
    #expect(!second.output.contains("neither the list nor any screen has it"))

    first.type("q")
    second.type("q")
    #expect(await first.waitForExit() == 0)
    #expect(await second.waitForExit() == 0)
  }

  private func titles(in dataFile: URL, _ environment: [String: String]) async throws -> [String] {
    try await storedStandups(at: dataFile, environment: environment).map(\.title)
  }
}
