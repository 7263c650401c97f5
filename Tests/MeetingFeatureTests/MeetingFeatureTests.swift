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

  @Test func deletingAsksThenTellsTheParentAndDismisses() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteMeeting }
    await store.send(.alert(.presented(.confirmDeletion))) { $0.alert = nil }
    await store.receive(\.delegate.deleteMeeting, standup.meetings[0].id)
    #expect(store.isDismissed)
  }

  @Test func cancellingTheAlertKeepsEverything() async {
    let store = makeStore()

    await store.send(.deleteButtonTapped) { $0.alert = .deleteMeeting }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    #expect(!store.isDismissed)
  }
}
