import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import MeetingFeature
import Models
import RecordMeeting
import SpeechClient
import StandupDetail
import StandupForm
import StandupsList
import Testing

/// A standup's new version reaches every screen that shows it.
extension AppFeatureTests {
  @Test func anEditReachesEveryScreenShowingTheStandup() async {
    let store = makeStore(
      .loaded(
        [.mock, .engineeringMock],
        path: StackState([
          .detail(StandupDetail.State(standup: .mock)),
          .detail(StandupDetail.State(standup: .engineeringMock)),
          .detail(StandupDetail.State(standup: .mock)),
        ])
      )
    )
    var edited = Standup.mock
    edited.meetings = []

    await store.deleteMeeting(at: 0, onDetail: 2, leaving: edited)
    await store.receive(\.path[id: 2].detail.delegate.standupUpdated, edited) {
      $0.path[id: 0, case: \.detail]?.standup = edited
      $0.list.standups[id: edited.id] = edited
    }
    await store.receive(
      \.delegate.standupsChanged,
      .edited(edited.id, StandupEdit(meetingsRemoved: [Standup.mock.meetings[0].id])))
    #expect(store.state.path[id: 1, case: \.detail]?.standup == .engineeringMock)
  }
}
