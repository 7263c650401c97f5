import AppFeature
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
import StorageClient
import Testing

/// The add and edit forms, which the app presents for the list and the detail screens.
@MainActor
struct FormTests {
  let clock = TestClock()

  func makeStore(
    _ state: @autoclosure () -> AppFeature.State,
    storage: InMemoryStorage = InMemoryStorage(loaded: [])
  ) -> TestStore<AppFeature.State, AppFeature.Action> {
    TestStore(initialState: state()) {
      AppFeature()
    } withDependencies: { [clock] in
      $0.continuousClock = clock
      $0.storageClient = storage.client
      $0.uuid = .incrementing
    }
  }

  @Test func addingAStandupUsesDeterministicIDs() async {
    let storage = InMemoryStorage(loaded: [])
    let store = makeStore(.loaded([]), storage: storage)
    let added = Standup(
      id: Standup.ID(UUID(0)),
      attendees: [Attendee(id: Attendee.ID(UUID(1)), name: "Blob")],
      title: "Engineering"
    )

    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(StandupForm.State(standup: newStandup))
    }
    await store.send(\.destination.presented.add.titleChanged, "Engineering") {
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))],
            title: "Engineering"
          )
        )
      )
    }
    await store.send(
      \.destination.presented.add.attendeeNameChanged,
      (id: Attendee.ID(UUID(1)), name: "Blob")
    ) {
      $0.destination = .add(StandupForm.State(standup: added))
    }
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [added]
      $0.persistence.isSaving = true
      $0.persistence.revision += 1
    }
    #expect(storage.savedStandups == [added])

    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
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

    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.list.standups = [
        Standup(
          id: Standup.ID(UUID(0)),
          attendees: [Attendee(id: Attendee.ID(UUID(2)), name: "Blob")],
          title: "Design"
        )
      ]
      $0.persistence.isSaving = true
      $0.persistence.revision += 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
  }

  @Test func aStandupWithoutATitleIsNotAdded() async {
    let form = StandupForm.State(focus: nil, standup: newStandup)
    let store = makeStore(.loaded([], destination: .add(form)))

    await store.send(.confirmAddButtonTapped) {
      $0.destination = .add(StandupForm.State(focus: .title, standup: newStandup))
    }
    #expect(store.state.list.standups.isEmpty)
  }

  @Test func dismissingAddDiscardsTheStandup() async {
    let store = makeStore(.loaded([]))

    await store.send(.list(.addButtonTapped))
    await store.receive(\.list.delegate.addStandup) {
      $0.destination = .add(StandupForm.State(standup: newStandup))
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
      var standup = Standup.mock
      standup.title = "Scrapped"
      $0.destination = .edit(StandupForm.State(standup: standup))
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
      $0.persistence.isSaving = true
      $0.persistence.revision += 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.persistence.saveCooldownEnded) { $0.persistence.isSaving = false }
  }

  @Test func anUntitledEditStaysOpen() async {
    var form = StandupForm.State(focus: nil, standup: .engineeringMock)
    form.standup.title = " "
    let store = makeStore(
      .loaded([.engineeringMock], destination: .edit(form))
    )

    await store.send(.doneEditingButtonTapped) {
      form.focus = .title
      $0.destination = .edit(form)
    }
  }
}

/// The standup the add form starts with when UUIDs are `.incrementing`.
private let newStandup = Standup(
  id: Standup.ID(UUID(0)),
  attendees: [Attendee(id: Attendee.ID(UUID(1)))]
)
