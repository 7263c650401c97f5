import Foundation
import Models
import StorageClient
import Testing

/// What a pull's report tells the user, whichever command or screen shows it.
struct TeamPullReportTests {
  @Test func changesNotAppliedAreNamedUpToThreeThenCounted() {
    var report = TeamPullReport()
    #expect(report.notAppliedSentences.isEmpty)
    report.skipped = (1...500).map { sequence in
      TeamPullReport.Skipped(
        sequence: Int64(sequence), madeBy: "mallory",
        reason: "it is not a change this release can read")
    }
    let sentences = report.notAppliedSentences
    #expect(sentences.prefix(3) == report.skipped.prefix(3).map(\.sentence)[...])
    #expect(sentences.dropFirst(3) == ["497 more of the team's changes were not applied here."])
    report.skipped = Array(report.skipped.prefix(1))
    #expect(report.notAppliedSentences == [report.skipped[0].sentence])
  }

  @Test func aChangeNotAppliedNamesItsAuthorOrTheCompactedState() {
    let change = TeamPullReport.Skipped(sequence: 7, madeBy: "mallory", reason: "too large.")
    #expect(change.sentence == "The team's change 7, by mallory, was not applied here: too large.")
    let fromTheState = TeamPullReport.Skipped(sequence: 5000, madeBy: nil, reason: "too large")
    #expect(
      fromTheState.sentence
        == "A standup of the team's compacted state, made through change 5000, was not applied "
        + "here: too large.")
  }

  @Test func copiesKeptApartAreNamedUpToThreeThenCounted() {
    var report = TeamPullReport()
    #expect(report.keptApartSentence == nil)
    report.keptApart = ["Design", "Engineering", "Product", "Sales"].map { title in
      var held = Standup.mock
      held.title = title
      return TeamPullReport.KeptCopy(keepingApart: held, makeID: { UUID() })
    }
    #expect(
      report.keptApartSentence
        == "The team shares standups this machine held as its own, with other values: the "
        + "team's are shown as shared, and yours are kept here as “Design (kept here)”, "
        + "“Engineering (kept here)”, “Product (kept here)”, and 1 more.")
  }
}
