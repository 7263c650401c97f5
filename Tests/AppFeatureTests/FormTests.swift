import AppFeature
import CasePaths
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StandupDetail
import StandupForm
import StandupsList
import Testing

/// The add and edit forms, which the app presents for the list and the detail screens.
@MainActor
struct FormTests {
  let clock = TestClock()

  func makeStore(
    _ state: @autoclosure () -> AppFeature.State
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.uuid = .incrementing
    }
  }

  @Test func addingAStandupUsesDeterministicIDs() async {
    let store = makeStore(.loaded([]))
    let added = Standup(
      id: Standup.ID(UUID(0)),
      attendees: [Attendee(id: Attendee.ID(UUID(1)), name: "Blob")],
      title: "Engineering"
    )

    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(newForm())
    }
    await store.send(\.destination.presented.add.titleChanged, "Engineering") {
      $0.destination?.modify(\.add) { $0.standup.title = "Engineering" }
    }
    await store.send(
      \.destination.presented.add.attendeeNameChanged,
      (id: Attendee.ID(UUID(1)), name: "Blob")
    ) {
      $0.destination?.modify(\.add) { $0.standup = added }
    }
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [added]
    }
    await store.receive(\.delegate.standupsChanged, .added([added]))
  }

  @Test func addingValidatesAttendees() async {
    let form = StandupForm.State(
      standup: Standup(
        id: Standup.ID(UUID(0)),
        attendees: [
          Attendee(id: Attendee.ID(UUID(1)), name: ""),
          Attendee(id: Attendee.ID(UUID(2)), name: " Blob "),
          Attendee(id: Attendee.ID(UUID(3)), name: "   "),
        ],
        title: " Design "
      )
    )
    let store = makeStore(.loaded([], destination: .add(form)))

    let validated = Standup(
      id: Standup.ID(UUID(0)),
      attendees: [Attendee(id: Attendee.ID(UUID(2)), name: "Blob")],
      title: "Design"
    )

    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [validated]
    }
    await store.receive(\.delegate.standupsChanged, .added([validated]))
  }

  @Test func aStandupWithoutATitleIsNotAdded() async {
    let form = newForm(focus: nil)
    let store = makeStore(.loaded([], destination: .add(form)))

    await store.send(.confirmAddButtonTapped) {
      $0.destination?.modify(\.add) { $0.focus = .title }
    }
    #expect(store.state.list.standups.isEmpty)
  }

  @Test func dismissingAddDiscardsTheStandup() async {
    let store = makeStore(.loaded([]))

    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(newForm())
    }
    await store.send(.dismissAddButtonTapped) { $0.destination = nil }
    #expect(store.state.list.standups.isEmpty)
  }

  @Test func cancellingAnEditChangesNothing() async {
    let store = makeStore(
      .loaded([.mock], path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    )

    await store.send(\.path[id: 0].detail.editButtonTapped)
    await store.receive(\.path[id: 0].detail.delegate.editStandup, .mock) {
      $0.destination = .edit(StandupForm.State(standup: .mock))
    }
    await store.send(\.destination.presented.edit.titleChanged, "Scrapped") {
      $0.destination?.modify(\.edit) { $0.standup.title = "Scrapped" }
    }
    await store.send(.cancelEditButtonTapped) { $0.destination = nil }
    #expect(store.state.list.standups == [.mock])
    #expect(store.state.path[id: 0, case: \.detail]?.standup == .mock)
  }

  @Test func editingValidatesLikeAdding() async {
    var form = StandupForm.State(standup: .engineeringMock)
    form.standup.attendees[1].name = "  "
    form.standup.title = "Platform "
    let store = makeStore(
      .loaded(
        [.engineeringMock],
        path: StackState([.detail(StandupDetail.State(standup: .engineeringMock))]),
        destination: .edit(form)
      )
    )
    var validated = Standup.engineeringMock
    validated.title = "Platform"
    validated.attendees.remove(at: 1)

    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.path[id: 0, case: \.detail]?.standup = validated
      $0.list.standups = [validated]
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(validated.id, StandupEdit(from: .engineeringMock, to: validated)))
  }

  /// The repro of issue 38: another instance adds Carol while the form is open; the form changes
  /// only the title, and Carol stays.
  @Test func anEditAppliesOnlyWhatTheFormChangedToTheStandupAsItIsNow() async {
    var form = StandupForm.State(standup: .mock)
    form.standup.title = "Design review"
    var withCarol = Standup.mock
    withCarol.attendees.append(Attendee(id: Attendee.ID(UUID(0xC)), name: "Carol"))
    let store = makeStore(
      .loaded(
        [withCarol],
        path: StackState([.detail(StandupDetail.State(standup: withCarol))]),
        destination: .edit(form)
      )
    )
    var expected = withCarol
    expected.title = "Design review"

    await store.send(.doneEditingButtonTapped) {
      $0.destination = nil
      $0.path[id: 0, case: \.detail]?.standup = expected
      $0.list.standups = [expected]
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(Standup.mock.id, StandupEdit(title: "Design review", seen: .init(title: "Design"))))
  }

  @Test func anEditThatChangesNothingIsNotAnnounced() async {
    let store = makeStore(
      .loaded([.mock], destination: .edit(StandupForm.State(standup: .mock)))
    )

    await store.send(.doneEditingButtonTapped) { $0.destination = nil }
  }

  @Test func anUntitledEditStaysOpen() async {
    var form = StandupForm.State(focus: nil, standup: .engineeringMock)
    form.standup.title = " "
    let store = makeStore(
      .loaded([.engineeringMock], destination: .edit(form))
    )

    await store.send(.doneEditingButtonTapped) {
      $0.destination?.modify(\.edit) { $0.focus = .title }
    }
  }
}

/// The add form as it opens when UUIDs are `.incrementing`: a new standup (UUID 0) with the
/// form's blank attendee (UUID 1).
private func newForm(focus: StandupForm.State.Field? = .title) -> StandupForm.State {
  withDependencies {
    $0.uuid = UUIDGenerator { UUID(1) }
  } operation: {
    StandupForm.State(focus: focus, standup: Standup(id: Standup.ID(UUID(0))))
  }
}
