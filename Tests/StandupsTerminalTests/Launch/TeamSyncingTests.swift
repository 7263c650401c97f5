import StorageClient
import Testing

@testable import StandupsTerminal

struct TeamSyncingTests {
  @Test func changesNotAppliedAreNamedUpToThreeThenCounted() throws {
    let skipped = (1...500).map { sequence in
      TeamPullReport.Skipped(
        sequence: Int64(sequence), madeBy: "mallory",
        reason: "it is not a change this release can read")
    }
    #expect(TeamSyncing.notApplied([]) == nil)
    #expect(TeamSyncing.notApplied(Array(skipped.prefix(1))) == skipped[0].sentence)
    let flood = try #require(TeamSyncing.notApplied(skipped))
    #expect(flood.hasPrefix(skipped.prefix(3).map(\.sentence).joined(separator: " ")))
    #expect(flood.hasSuffix(" 497 more of the team's changes were not applied here."))
    #expect(!flood.contains("change 4,"))
  }
}
