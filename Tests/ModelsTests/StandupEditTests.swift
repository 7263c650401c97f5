import Foundation
import IdentifiedCollections
import Models
import PropertyBased
import Testing

/// An edit carries what the user changed, and only that: applied to a standup that changed
/// elsewhere since the form opened, it keeps those other changes.
struct StandupEditTests {
  let carol = Attendee(id: Attendee.ID(UUID(0xC)), name: "Carol")
  let dave = Attendee(id: Attendee.ID(UUID(0xD)), name: "Dave")

  @Test func aTitleChangedInAFormKeepsAnAttendeeAddedElsewhere() {
    var formResult = Standup.mock
    formResult.title = "Design review"
    var now = Standup.mock
    now.attendees.append(carol)

    let edit = StandupEdit(from: .mock, to: formResult)

    #expect(edit == StandupEdit(title: "Design review", seen: .init(title: "Design")))
    var expected = now
    expected.title = "Design review"
    #expect(edit.applied(to: now) == expected)
  }

  @Test func fieldsChangedElsewhereSurviveAndTheUsersFieldWinsWhereBothChanged() {
    var formResult = Standup.mock
    formResult.title = "Mine"
    var now = Standup.mock
    now.title = "Theirs"
    now.theme = .oxblood
    now.duration = .seconds(600)

    let merged = StandupEdit(from: .mock, to: formResult).applied(to: now)

    #expect(merged.title == "Mine")
    #expect(merged.theme == .oxblood)
    #expect(merged.duration == .seconds(600))
  }

  @Test func attendeesAddedRemovedAndRenamedInTheFormKeepOnesAddedElsewhere() {
    var formResult = Standup.mock
    formResult.attendees.remove(id: Standup.mock.attendees[1].id)
    formResult.attendees[id: Standup.mock.attendees[0].id]?.name = "Blob Prime"
    formResult.attendees.insert(dave, at: 1)
    var now = Standup.mock
    now.attendees.append(carol)
    now.attendees[id: Standup.mock.attendees[2].id]?.name = "Renamed elsewhere"

    let merged = StandupEdit(from: .mock, to: formResult).applied(to: now)

    #expect(
      merged.attendees.map(\.name) == [
        "Blob Prime", "Dave", "Renamed elsewhere", "Blob Esq", "Blob III", "Blob I", "Carol",
      ])
  }

  @Test func anAttendeeRemovedElsewhereStaysRemovedUnlessTheFormRenamedIt() {
    let removed = Standup.mock.attendees[3].id
    var now = Standup.mock
    now.attendees.remove(id: removed)
    var formResult = Standup.mock
    formResult.title = "Only the title"

    #expect(StandupEdit(from: .mock, to: formResult).applied(to: now).attendees[id: removed] == nil)
  }

  /// What another machine's edit takes from the standup here: a name given here to an attendee
  /// it removes, and an attendee removed here that it renames; an attendee it removes under the
  /// name it saw takes nothing, nor does a rename of one still here.
  @Test func anEditTakesAnAttendeeRenamedHereThatItRemovesAndBringsBackOneRemovedHere() throws {
    let renamedHere = Standup.mock.attendees[0]
    let removedHere = Standup.mock.attendees[1]
    let removedAsSeen = Standup.mock.attendees[2]
    let renamedThere = Standup.mock.attendees[3]
    var there = Standup.mock
    there.attendees.remove(id: renamedHere.id)
    there.attendees.remove(id: removedAsSeen.id)
    there.attendees[id: removedHere.id]?.name = "Renamed there"
    there.attendees[id: renamedThere.id]?.name = "Also renamed there"
    let edit = StandupEdit(from: .mock, to: there)
    var here = Standup.mock
    here.attendees[id: renamedHere.id]?.name = "Renamed here"
    here.attendees.remove(id: removedHere.id)

    let named = try #require(here.attendees[id: renamedHere.id])
    let broughtBack = try #require(there.attendees[id: removedHere.id])
    #expect(
      edit.attendeesReplaced(in: here) == [
        .init(replaced: .attendeeName(named), by: .attendeeRemoved(named)),
        .init(replaced: .attendeeRemoved(broughtBack), by: .attendeeName(broughtBack)),
      ])
    #expect(edit.attendeesReplaced(in: .mock) == [], "nothing changed here since the edit saw it")
  }

  @Test func anEditRestatingAStandupGivesAnyCopyItsValuesAndRemovesNothing() throws {
    var newer = Standup.mock
    newer.title = "Restated"
    newer.theme = .oxblood
    newer.attendees[0].name = "Blob Prime"
    newer.attendees.append(carol)
    newer.attendees.swapAt(1, 2)
    var older = Standup.mock
    older.attendees.remove(id: Standup.mock.attendees[2].id)
    older.attendees.append(dave)
    older.meetings = []

    let restated = StandupEdit(restating: newer).applied(to: older)

    var expected = newer
    expected.attendees.append(dave)
    #expect(restated == expected)
    #expect(StandupEdit(restating: newer).applied(to: newer) == newer)
  }

  @Test func meetingsRecordedElsewhereAreKeptAndOnesRemovedHereStayRemoved() {
    let recordedElsewhere = Meeting(
      id: Meeting.ID(UUID(0xE)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "")
    var now = Standup.mock
    now.record(recordedElsewhere)
    var afterDeleting = Standup.mock
    afterDeleting.meetings = []

    let merged = StandupEdit(from: .mock, to: afterDeleting).applied(to: now)

    #expect(merged.meetings.map(\.id) == [recordedElsewhere.id])
  }

  @Test func anEditTurnsItsBeforeIntoItsAfter() {
    var random = Xoshiro(seed: (7, 11, 13, 17))
    for round in 0..<200 {
      let before = Standup.random(using: &random)
      var after = Standup.random(using: &random)
      after = Standup(
        id: before.id, attendees: after.attendees, duration: after.duration,
        meetings: IdentifiedArray(
          uniqueElements: (before.meetings.prefix(1) + after.meetings).sorted { $0.date > $1.date }
        ),
        theme: after.theme, title: after.title)

      #expect(StandupEdit(from: before, to: after).applied(to: before) == after, "round \(round)")
      #expect(StandupEdit(from: before, to: before).isEmpty)
    }
  }

  @Test func aMeetingGoesWhereItsDateBelongsAndAMeetingOfTheSameDateBeforeOthers() {
    var standup = Standup.mock
    let older = Meeting(
      id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 0), transcript: "")
    let same = Meeting(
      id: Meeting.ID(UUID(2)), date: Standup.mock.meetings[0].date, transcript: "")
    standup.record(older)
    standup.record(same)
    standup.record(same)

    #expect(standup.meetings.map(\.id) == [same.id, Standup.mock.meetings[0].id, older.id])
  }

  @Test func changesApplyToTheListAsTheySay() {
    var standups: IdentifiedArrayOf<Standup> = [.mock]
    let meeting = Meeting(
      id: Meeting.ID(UUID(3)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "")

    StandupsChange.added([.engineeringMock, .mock]).apply(to: &standups)
    #expect(standups.ids.elements == [Standup.mock.id, Standup.engineeringMock.id])

    StandupsChange.edited(Standup.productMock.id, StandupEdit(title: "Gone")).apply(to: &standups)
    #expect(standups.count == 2, "an edit never brings a standup back")

    StandupsChange.deleted(Standup.mock.id).apply(to: &standups)
    StandupsChange.meetingRecorded(meeting, standup: .mock).apply(to: &standups)
    #expect(standups.ids.elements == [Standup.engineeringMock.id, Standup.mock.id])
    #expect(standups[id: Standup.mock.id]?.meetings.first == meeting, "the recording keeps it")
  }
}
