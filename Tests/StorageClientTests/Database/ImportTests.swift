import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// Standups come in from JSON files — a recovery file, an earlier release's data file, a
/// hand-edited export — without losing anything in the database.
struct ImportTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func anImportAddsWhatIsNewChangesWhatDiffersAndRemovesNothing() async throws {
    let database = folder.database()
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))
    var edited = Standup.mock
    edited.title = "Design review"
    edited.attendees.removeLast()
    edited.meetings = []
    let recorded = Meeting(
      id: Meeting.ID(UUID(8)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "")
    edited.record(recorded)

    let report = try await database.importStandups(
      [edited, .engineeringMock, .productMock], from: "in.json")

    var expected = ImportReport(
      path: "in.json", added: ["Product"],
      changed: [
        ImportReport.ChangedStandup(title: "Design review", parts: ["title", "a meeting added"])
      ],
      unchanged: 1)
    expected.standupIDs = [Standup.mock.id, Standup.productMock.id]
    #expect(report == expected)
    let stored = try await folder.database().load().standups
    #expect(stored.map(\.title) == ["Design review", "Engineering", "Product"])
    #expect(stored[id: Standup.mock.id]?.attendees == Standup.mock.attendees, "none removed")
    #expect(stored[id: Standup.mock.id]?.meetings.count == 2, "none removed")
  }

  @Test func theReportSaysWhatWasDone() {
    let report = ImportReport(
      path: "in.json", added: ["A", "B"],
      changed: [ImportReport.ChangedStandup(title: "C", parts: ["title", "theme"])], unchanged: 1)
    #expect(
      report.description
        == #"Added 2 standups: "A", "B". Changed 1 standup: "C" (title, theme). 1 standup already there, unchanged."#
    )
  }

  @Test func theDataFileOfAnEarlierReleaseIsImportedOnceAndLeftAsItWas() async throws {
    let old = folder.path("standups.json")
    let bytes = try StandupsFile(standups: [.mock, .engineeringMock]).encoded()
    try bytes.write(to: URL(fileURLWithPath: old))

    let first = try await folder.database { $0.importingOnFirstLaunch = old }.load()
    let second = try await folder.database { $0.importingOnFirstLaunch = old }.load()

    #expect(first.standups == [.mock, .engineeringMock])
    var report = ImportReport(path: old, added: ["Design", "Engineering"])
    report.standupIDs = [Standup.mock.id, Standup.engineeringMock.id]
    #expect(first.openingReport?.earlierRelease == .imported(report))
    #expect(second.openingReport?.earlierRelease == nil)
    #expect(second.standups == [.mock, .engineeringMock])
    #expect(try folder.bytes(old) == bytes)
  }

  @Test func anEarlierReleasesFileThatCannotBeReadIsLeftForTheUserToMend() async throws {
    let old = folder.path("standups.json")
    let bytes = Data(#"{"formatVersion": 1, "standups": [{"title": 42}]}"#.utf8)
    try bytes.write(to: URL(fileURLWithPath: old))

    let loaded = try await folder.database { $0.importingOnFirstLaunch = old }.load()

    guard case .failed(let path, let reason)? = loaded.openingReport?.earlierRelease else {
      Issue.record("Expected a failed import, got \(loaded.opening)")
      return
    }
    #expect(path == old)
    #expect(reason.contains("standups[0]"))
    #expect(loaded.standups.isEmpty)
    #expect(try folder.bytes(old) == bytes)
  }
}
