import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import StandupForm
import StandupsList
import StorageClient
import Testing

@MainActor
struct StandupsListTests {
  @Test func addingAStandupUsesDeterministicIDs() async {
    let store = TestStore(initialState: StandupsList.State(loadStatus: .loaded)) {
      StandupsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addButtonTapped) {
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )
        )
      )
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
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)), name: "Blob")],
            title: "Engineering"
          )
        )
      )
    }
    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.standups = [
        Standup(
          id: Standup.ID(UUID(0)),
          attendees: [Attendee(id: Attendee.ID(UUID(1)), name: "Blob")],
          title: "Engineering"
        )
      ]
    }
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
    let store = TestStore(initialState: StandupsList.State(destination: .add(form))) {
      StandupsList()
    }

    await store.send(.confirmAddButtonTapped) {
      $0.destination = nil
      $0.standups = [
        Standup(
          id: Standup.ID(UUID(0)),
          attendees: [Attendee(id: Attendee.ID(UUID(2)), name: "Blob")],
          title: "Design"
        )
      ]
    }
  }

  @Test func aStandupWithoutATitleIsNotAdded() async {
    let form = StandupForm.State(
      focus: nil,
      standup: Standup(id: Standup.ID(UUID(0)), attendees: [Attendee(id: Attendee.ID(UUID(1)))])
    )
    let store = TestStore(initialState: StandupsList.State(destination: .add(form))) {
      StandupsList()
    }

    await store.send(.confirmAddButtonTapped) {
      $0.destination = .add(
        StandupForm.State(
          focus: .title,
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )
        )
      )
    }
    #expect(store.state.standups.isEmpty)
  }

  @Test func dismissingAddDiscardsTheStandup() async {
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    } withDependencies: {
      $0.uuid = .incrementing
    }

    await store.send(.addButtonTapped) {
      $0.destination = .add(
        StandupForm.State(
          standup: Standup(
            id: Standup.ID(UUID(0)),
            attendees: [Attendee(id: Attendee.ID(UUID(1)))]
          )
        )
      )
    }
    await store.send(.dismissAddButtonTapped) { $0.destination = nil }
    #expect(store.state.standups.isEmpty)
  }

  @Test func deletingAsksFirst() async {
    let store = TestStore(
      initialState: StandupsList.State(standups: [.mock, .engineeringMock])
    ) {
      StandupsList()
    }

    await store.send(.deleteButtonTapped(id: Standup.mock.id)) {
      $0.destination = .alert(.deleteStandup(.mock))
    }
    await store.send(\.destination.presented.alert.confirmDeletion, Standup.mock.id) {
      $0.destination = nil
      $0.standups = [.engineeringMock]
    }
  }

  @Test func cancellingADeletionKeepsTheStandup() async {
    let store = TestStore(initialState: StandupsList.State(standups: [.mock])) {
      StandupsList()
    }

    await store.send(.deleteButtonTapped(id: Standup.mock.id)) {
      $0.destination = .alert(.deleteStandup(.mock))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    #expect(store.state.standups == [.mock])
  }

  @Test func corruptDataShowsAnAlertOfferingSampleData() async {
    let storage = InMemoryStorage(data: Data(#"{"formatVersion": 1}"#.utf8))
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    } withDependencies: {
      $0.storageClient = storage.client
    }
    let error = StorageError.corrupt(.malformed(path: "standups", reason: "The value is missing."))

    await store.send(.onTask) { $0.loadStatus = .loading }
    await store.receive(\.standupsLoaded, .failure(error)) {
      $0.loadStatus = .failed
      $0.destination = .alert(.dataFailedToLoad(error))
    }
    await store.send(\.destination.presented.alert.confirmLoadSampleData) {
      $0.destination = nil
      $0.standups = [.mock, .engineeringMock, .productMock]
    }
  }

  @Test func aMissingFileIsAnEmptyListWithoutAlert() async {
    let storage = InMemoryStorage()
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    } withDependencies: {
      $0.storageClient = storage.client
    }

    await store.send(.onTask) { $0.loadStatus = .loading }
    await store.receive(\.standupsLoaded, .success([])) { $0.loadStatus = .loaded }
    await store.send(.onTask)
  }

  @Test func savedStandupsLoad() async {
    let storage = InMemoryStorage(standups: [.mock])
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    } withDependencies: {
      $0.storageClient = storage.client
    }

    await store.send(.onTask) { $0.loadStatus = .loading }
    await store.receive(\.standupsLoaded, .success([.mock])) {
      $0.loadStatus = .loaded
      $0.standups = [.mock]
    }
  }

  @Test func tappingARowTellsTheParent() async {
    let store = TestStore(initialState: StandupsList.State(standups: [.mock])) {
      StandupsList()
    }

    await store.send(.standupTapped(id: Standup.mock.id))
    await store.receive(\.delegate.standupTapped, Standup.mock.id)
  }

  @Test func tappingAMissingRowIsReported() async {
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    }

    await withKnownIssue {
      await store.send(.standupTapped(id: Standup.mock.id))
    } matching: { issue in
      issue.description.contains("The list has no standup")
    }
  }
}
