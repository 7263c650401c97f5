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
    let untouched = copy(of: .mock)
    let changed = copy(of: .mock)
    let deleted = copy(of: .mock)
    try await database.apply(.added([untouched, changed, deleted]))
    let kept = [untouched, changed, deleted].map {
      TeamPullReport.KeptCopy(held: .mock, copy: $0)
    }

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

  /// `standup` kept apart as a pull keeps it: its values under IDs of its own.
  private func copy(of standup: Standup) -> Standup {
    Standup(
      id: Standup.ID(UUID()),
      attendees: IdentifiedArray(
        uniqueElements: standup.attendees.map { Attendee(id: Attendee.ID(UUID()), name: $0.name) }
      ),
      duration: standup.duration,
      meetings: IdentifiedArray(
        uniqueElements: standup.meetings.map {
          Meeting(id: Meeting.ID(UUID()), date: $0.date, transcript: $0.transcript)
        }),
      theme: standup.theme,
      title: "\(standup.displayTitle) (kept here)")
  }
}
