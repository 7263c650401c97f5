import AppFeature
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StandupDetail
import StandupsList
import Testing

extension AppFeature.State {
  /// The app showing `standups`, with an optional stack and sheet on top.
  static func loaded(
    _ standups: IdentifiedArrayOf<Standup>,
    path: StackState<AppFeature.Path.State> = StackState(),
    destination: AppFeature.Destination.State? = nil
  ) -> Self {
    Self(destination: destination, list: StandupsList.State(standups: standups), path: path)
  }
}

extension Standup {
  /// The standup after the glue records a meeting: the new meeting first, with the test's
  /// fixed date and the UUID the `incrementing` generator hands out `id`-th.
  func adding(meetingWithTranscript transcript: String, id: Int) -> Self {
    var standup = self
    standup.meetings.insert(
      Meeting(id: Meeting.ID(UUID(id)), date: AppFeatureTests.now, transcript: transcript),
      at: 0
    )
    return standup
  }
}

extension TestStore where State == AppFeature.State, Action == AppFeature.Action {
  /// Deletes a past meeting from the detail screen `id`, answering the question it asks first;
  /// the screen then shows `standup`. The `standupUpdated` the screen sends is the caller's to
  /// receive.
  func deleteMeeting(
    at offset: Int,
    onDetail id: StackElementID,
    leaving standup: Standup,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    guard let meeting = state.path[id: id]?.standup.meetings[offset].id else {
      Issue.record("Screen \(id) shows no meeting \(offset).", sourceLocation: sourceLocation)
      return
    }
    await send(\.path[id: id].detail.deleteMeetings, [offset]) {
      $0.path[id: id, case: \.detail]?.alert = .deleteMeetings([meeting])
    }
    await send(\.path[id: id].detail.alert.presented.confirmMeetingDeletion, [meeting]) {
      $0.path[id: id, case: \.detail]?.alert = nil
      $0.path[id: id, case: \.detail]?.standup = standup
    }
  }
}

/// Waits for a store's effects to finish and checks that its cancellation registry is empty.
@MainActor
func expectNothingLeftRunning<State, Action>(
  _ store: TestStore<State, Action>,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  await store.finish()
  #expect(store.effectRuntime.runningCount == 0, sourceLocation: sourceLocation)
  #expect(store.effectRuntime.cancellationKeyCount == 0, sourceLocation: sourceLocation)
}
