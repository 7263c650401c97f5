import AppFeature
import Composable
import ComposableTestSupport
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StandupsList
import Testing

extension AppFeature.State {
  /// The app after its standups loaded, with an optional stack on top.
  static func loaded(
    _ standups: IdentifiedArrayOf<Standup>,
    path: StackState<AppFeature.Path.State> = StackState()
  ) -> Self {
    Self(list: .loaded(standups), path: path)
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
