import Composable
import ComposableTestSupport
import MeetingFeature
import Models
import Testing

@MainActor
struct MeetingFeatureTests {
  let standup = Standup.mock

  func makeStore() -> TestStore<MeetingFeature.State, MeetingFeature.Action> {
    TestStore(
      initialState: MeetingFeature.State(meeting: standup.meetings[0], standup: standup)
    ) {
      MeetingFeature()
    }
  }

  @Test func deletingAsksThenTellsTheParentWhichClosesTheScreen() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteMeeting }
    await store.send(.alert(.presented(.confirmDeletion))) { $0.alert = nil }
    await store.receive(\.delegate.deleteMeeting, standup.meetings[0].id)
    #expect(!store.isDismissed, "the parent closes the screen of a deleted meeting")
  }

  @Test func cancellingTheAlertKeepsEverything() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteMeeting }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(!store.isDismissed)
  }
}
