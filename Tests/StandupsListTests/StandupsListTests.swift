import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import Models
import StandupsList
import StorageClient
import Testing

@MainActor
struct StandupsListTests {
  @Test func addingAsksTheParent() async {
    let store = TestStore(initialState: StandupsList.State(loadStatus: .loaded)) {
      StandupsList()
    }

    await store.send(.addButtonTapped)
    await store.receive(\.delegate.addStandup)
  }

  @Test func deletingAsksFirst() async {
    let store = TestStore(
      initialState: StandupsList.State(standups: [.mock, .engineeringMock])
    ) {
      StandupsList()
    }

    await store.send(.deleteButtonTapped(id: Standup.mock.id)) {
      $0.alert = .deleteStandup(.mock)
    }
    await store.send(\.alert.presented.confirmDeletion, Standup.mock.id) {
      $0.alert = nil
      $0.standups = [.engineeringMock]
    }
  }

  @Test func cancellingADeletionKeepsTheStandup() async {
    let store = TestStore(initialState: StandupsList.State(standups: [.mock])) {
      StandupsList()
    }

    await store.send(.deleteButtonTapped(id: Standup.mock.id)) {
      $0.alert = .deleteStandup(.mock)
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(store.state.standups == [.mock])
  }

  @Test func corruptDataShowsAnAlertOfferingSampleData() async {
    let storage = InMemoryStorage(data: Data(#"{"formatVersion": 1}"#.utf8))
    let store = unloadedStore(reading: storage)
    let error = StorageError.corrupt(.malformed(path: "standups", reason: "The value is missing."))

    await store.send(.onTask) { $0.loadStatus = .loading }
    await store.receive(\.standupsLoaded, .failure(error)) {
      $0.loadStatus = .failed
      $0.alert = .dataFailedToLoad(error)
    }
    await store.send(\.alert.presented.confirmLoadSampleData) {
      $0.alert = nil
      $0.standups = [.mock, .engineeringMock, .productMock]
    }
  }

  @Test func aMissingFileIsAnEmptyListWithoutAlert() async {
    let storage = InMemoryStorage()
    let store = unloadedStore(reading: storage)

    await store.send(.onTask) { $0.loadStatus = .loading }
    await store.receive(\.standupsLoaded, .success([])) { $0.loadStatus = .loaded }
    await store.send(.onTask)
  }

  @Test func savedStandupsLoad() async {
    let storage = InMemoryStorage(standups: [.mock])
    let store = unloadedStore(reading: storage)

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

  /// A list that has not loaded yet, reading its standups from `storage`.
  private func unloadedStore(reading storage: InMemoryStorage) -> TestStore<
    StandupsList.State, StandupsList.Action
  > {
    TestStore(initialState: StandupsList.State()) {
      StandupsList()
    } withDependencies: {
      $0.storageClient = storage.client
    }
  }
}
