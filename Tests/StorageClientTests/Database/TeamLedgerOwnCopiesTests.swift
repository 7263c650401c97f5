import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// A copy a pull kept apart is removed once the team's standup holds everything it does, and
/// only then: a copy the user changed meanwhile stays, told; one they deleted is not told.
struct TeamLedgerOwnCopiesTests: LedgerTesting {
  @Test func aCopyIsRemovedOnlyWhenTheTeamsStandupIsAsHeldAndTheCopyIsUntouched() async throws {
    let (database, _) = try await joined(holding: [.mock])
    let kept = (0..<3).map { _ in TeamPullReport.KeptCopy(keepingApart: .mock, makeID: UUID.init) }
    let (changed, deleted) = (kept[1].copy, kept[2].copy)
    try await database.apply(.added(kept.map(\.copy)))

    // NB: The team's standup is not yet as this machine held it: every copy stays.
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Not yet")))
    #expect(try await database.removeCopiesTheTeamCaughtUpWith(kept) == kept)

    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: Standup.mock.title)))
    try await database.apply(.edited(changed.id, StandupEdit(title: "Mine now")))
    try await database.apply(.deleted(deleted.id))
    #expect(try await database.removeCopiesTheTeamCaughtUpWith(kept) == [kept[1]])
    let titles = try await database.load().standups.map(\.title)
    #expect(titles.sorted() == [Standup.mock.title, "Mine now"].sorted())
  }
}
