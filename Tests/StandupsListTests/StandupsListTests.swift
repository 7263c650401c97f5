import Composable
import ComposableTestSupport
import Models
import StandupsList
import Testing

@MainActor
struct StandupsListTests {
  @Test func addingAsksTheParent() async {
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    }

    await store.send(.addButtonTapped)
    await store.receive(\.delegate.addStandup)
  }

  @Test func deletingAsksTheUserAndThenTheParent() async {
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
    }
    await store.receive(\.delegate.deleteStandup, Standup.mock.id)
    #expect(store.state.standups == [.mock, .engineeringMock])
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

  @Test func deletingAMissingStandupIsReported() async {
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    }

    await withKnownIssue {
      await store.send(.deleteButtonTapped(id: Standup.mock.id))
    } matching: { issue in
      issue.description.contains("The list has no standup")
    }
  }

  @Test func sampleDataIsAskedOfTheParent() async {
    let store = TestStore(initialState: StandupsList.State()) {
      StandupsList()
    }

    await store.send(.loadSampleDataButtonTapped)
    await store.receive(\.delegate.loadSampleData)
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
