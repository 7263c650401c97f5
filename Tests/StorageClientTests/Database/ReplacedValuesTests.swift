import Foundation
import IdentifiedCollections
import Models
import Testing

@testable import StorageClient

/// Two forms open on one standup, in two instances: the last save wins, and the value it replaced
/// is kept, named, for the other instances to tell their users, until one puts it away.
struct ReplacedValuesTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aSaveOverAValueSavedMeanwhileElsewhereKeepsTheValueForTheOthers() async throws {
    try await folder.seed([.mock])
    let first = folder.database { $0.owner = "first" }
    let second = folder.database { $0.owner = "second" }
    _ = try await first.load()
    _ = try await second.load()
    var firstForm = Standup.mock
    firstForm.title = "Design review"
    var secondForm = Standup.mock
    secondForm.title = "Design sync"
    secondForm.theme = .navy

    try await first.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: firstForm)))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: secondForm)))

    let told = try #require(try await first.changesElsewhere()?.replacedValues)
    #expect(told.map(\.value) == [.title("Design review")])
    #expect(told.map(\.replacement) == [.title("Design sync")])
    #expect(told.first?.standupTitle == "Design review")
    #expect(try await second.changesElsewhere()?.replacedValues == nil, "not told of its own save")
    #expect(try await folder.database().readStandups().first?.title == "Design sync")

    try await first.putAwayReplacedValue(try #require(told.first).id)
    #expect(try await first.changesElsewhere()?.replacedValues == nil, "its own put-away")
    let third = folder.database { $0.owner = "third" }
    _ = try await third.load()
    try await third.apply(.edited(Standup.mock.id, StandupEdit(title: "Later")))
    #expect(try await first.changesElsewhere()?.replacedValues == nil, "put away for good")
  }

  @Test func aValueReplacedWhileNoInstanceRanIsLoadedAtTheNextLaunchAndNotToldTwice()
    async throws
  {
    try await folder.seed([.mock])
    let first = folder.database { $0.owner = "first" }
    let second = folder.database { $0.owner = "second" }
    _ = try await first.load()
    _ = try await second.load()
    try await first.apply(.edited(Standup.mock.id, StandupEdit(title: "Design review")))
    var theirs = Standup.mock
    theirs.title = "Design sync"
    var seen = Standup.mock
    seen.title = "Design"
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: seen, to: theirs)))

    let next = folder.database { $0.owner = "next" }
    let stored = try await next.load()
    #expect(stored.replacedValues.map(\.value) == [.title("Design review")])
    #expect(try await next.changesElsewhere()?.replacedValues == nil, "told once, at launch")
  }

  @Test func aSaveOfTheSameValueOrOfAnUntouchedFieldReplacesNothing() async throws {
    try await folder.seed([.mock])
    let first = folder.database { $0.owner = "first" }
    let second = folder.database { $0.owner = "second" }
    _ = try await first.load()
    _ = try await second.load()
    var retitled = Standup.mock
    retitled.title = "Design review"
    var rethemed = Standup.mock
    rethemed.theme = .navy

    try await first.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: retitled)))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: retitled)))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: rethemed)))

    #expect(try await first.changesElsewhere()?.replacedValues == nil)
    let stored = try #require(try await folder.database().readStandups().first)
    #expect(stored.title == "Design review")
    #expect(stored.theme == .navy)
  }

  @Test func aRenameSavedAfterAnotherInstanceReorderedTheAttendeesKeepsThatOrder() async throws {
    try await folder.seed([.mock])
    let renaming = folder.database()
    let reordering = folder.database()
    _ = try await renaming.load()
    _ = try await reordering.load()
    var reordered = Standup.mock
    reordered.attendees = IdentifiedArray(uniqueElements: Standup.mock.attendees.reversed())
    var renamed = Standup.mock
    renamed.attendees[0].name = "Renamed"

    try await reordering.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: reordered)))
    try await renaming.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: renamed)))

    let stored = try #require(try await folder.database().readStandups().first)
    #expect(stored.attendees.ids.elements == reordered.attendees.ids.elements)
    #expect(stored.attendees[id: Standup.mock.attendees[0].id]?.name == "Renamed")
  }

  @Test func anAttendeeRenamedInAFormButRemovedElsewhereIsKeptAndSaid() async throws {
    try await folder.seed([.mock])
    let renaming = folder.database()
    let removing = folder.database()
    _ = try await renaming.load()
    _ = try await removing.load()
    let carol = Standup.mock.attendees[2]
    var withoutCarol = Standup.mock
    withoutCarol.attendees.remove(id: carol.id)
    var renamed = Standup.mock
    renamed.attendees[id: carol.id]?.name = "Caroline"

    try await removing.apply(.edited(Standup.mock.id, StandupEdit(from: .mock, to: withoutCarol)))
    let outcome = try await renaming.apply(
      .edited(Standup.mock.id, StandupEdit(from: .mock, to: renamed)))

    #expect(
      outcome
        == .renamedAttendeesKept(Standup.mock.id, [Attendee(id: carol.id, name: "Caroline")]))
    let stored = try #require(try await folder.database().readStandups().first)
    #expect(stored.attendees[id: carol.id]?.name == "Caroline")
    // NB: Last: the rename moved no one, so it carries no order (which, applied where another
    // instance reordered the attendees, would undo that order unseen).
    #expect(stored.attendees.ids.last == carol.id)
  }
}
