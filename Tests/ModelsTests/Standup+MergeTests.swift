import Dependencies
import Foundation
import IdentifiedCollections
import Models
import Testing

/// The three-way merge of two copies of the standups that went their own ways: `stored` (what
/// another instance saved) with the changes that turned `base` into `mine`.
struct StandupMergeTests {
  let base: IdentifiedArrayOf<Standup> = [.mock, .engineeringMock]

  @Test func changesToDifferentFieldsAreAllKept() {
    var stored = base
    stored[id: Standup.mock.id]?.theme = .oxblood
    var mine = base
    mine[id: Standup.mock.id]?.title = "Design review"

    let merged = stored.applyingChanges(from: base, to: mine)
    #expect(merged[id: Standup.mock.id]?.title == "Design review")
    #expect(merged[id: Standup.mock.id]?.theme == .oxblood)
  }

  @Test func theSameFieldChangedOnBothSidesTakesMineEveryTime() {
    var stored = base
    stored[id: Standup.mock.id]?.title = "Theirs"
    var mine = base
    mine[id: Standup.mock.id]?.title = "Mine"

    #expect(stored.applyingChanges(from: base, to: mine)[id: Standup.mock.id]?.title == "Mine")
    #expect(mine.applyingChanges(from: base, to: stored)[id: Standup.mock.id]?.title == "Theirs")
  }

  @Test func meetingsRecordedOnEitherSideAreAllKeptAndDeletionsStay() {
    let theirs = Meeting(
      id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 2), transcript: "")
    let mine = Meeting(
      id: Meeting.ID(UUID(2)), date: Date(timeIntervalSince1970: 3), transcript: "")
    var stored = base
    stored[id: Standup.mock.id]?.meetings.insert(theirs, at: 0)
    var changed = base
    changed[id: Standup.mock.id]?.meetings = [mine]

    let merged = stored.applyingChanges(from: base, to: changed)
    #expect(merged[id: Standup.mock.id]?.meetings.map(\.id) == [mine.id, theirs.id])
  }

  @Test func standupsAddedOnEitherSideAreAllKept() {
    let added = Standup(id: Standup.ID(UUID(7)), title: "Mine")
    var stored = base
    stored.append(.productMock)
    var mine = base
    mine.append(added)
    let merged = stored.applyingChanges(from: base, to: mine)
    #expect(merged.map(\.title) == ["Design", "Engineering", "Product", "Mine"])
  }

  @Test func aDeletionOnOneSideIsNotUndoneByAnUnrelatedChangeOnTheOther() {
    let stored: IdentifiedArrayOf<Standup> = [.engineeringMock]
    var mine = base
    mine[id: Standup.engineeringMock.id]?.title = "Eng"
    #expect(stored.applyingChanges(from: base, to: mine).map(\.title) == ["Eng"])

    let deletedHere: IdentifiedArrayOf<Standup> = [.engineeringMock]
    #expect(
      base.applyingChanges(from: base, to: deletedHere).map(\.id) == [Standup.engineeringMock.id])
  }

  @Test func aChangeBeatsADeletionOnEitherSide() {
    var mine = base
    mine[id: Standup.mock.id]?.title = "Kept"
    let deletedThere: IdentifiedArrayOf<Standup> = [.engineeringMock]
    #expect(
      deletedThere.applyingChanges(from: base, to: mine)[id: Standup.mock.id]?.title == "Kept")

    var changedThere = base
    changedThere[id: Standup.mock.id]?.title = "Also kept"
    let deletedHere: IdentifiedArrayOf<Standup> = [.engineeringMock]
    #expect(
      changedThere.applyingChanges(from: base, to: deletedHere)[id: Standup.mock.id]?.title
        == "Also kept")
  }

  @Test func theSameStandupAddedOnBothSidesKeepsMineWithTheMeetingsOfBoth() {
    var theirs = Standup.productMock
    theirs.meetings = [
      Meeting(id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 1), transcript: "old")
    ]
    var mine = Standup.productMock
    mine.title = "Product (mine)"
    mine.meetings = [
      Meeting(id: Meeting.ID(UUID(2)), date: Date(timeIntervalSince1970: 2), transcript: "new")
    ]

    let merged = ([theirs] as IdentifiedArrayOf<Standup>)
      .applyingChanges(from: [], to: [mine])
    #expect(merged.first?.title == "Product (mine)")
    #expect(merged.first?.meetings.map(\.transcript) == ["new", "old"])
  }

  @Test func nothingChangedHereLeavesTheStoredStandupsAsTheyAre() {
    var stored = base
    stored[id: Standup.mock.id]?.title = "Theirs"
    stored.append(.productMock)
    #expect(stored.applyingChanges(from: base, to: base) == stored)
  }
}
