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
  /// The app after its standups loaded, with an optional stack and sheet on top.
  static func loaded(
    _ standups: IdentifiedArrayOf<Standup>,
    path: StackState<AppFeature.Path.State> = StackState(),
    destination: AppFeature.Destination.State? = nil
  ) -> Self {
    Self(
      destination: destination,
      list: StandupsList.State(standups: standups),
      path: path,
      persistence: .status(.loaded)
    )
  }

  /// The app while its standups load, with an optional stack on top (a deep link).
  static func loading(path: StackState<AppFeature.Path.State> = StackState()) -> Self {
    Self(path: path, persistence: .status(.loading))
  }
}

extension AppFeature.Persistence {
  /// Bookkeeping with the given status.
  static func status(_ status: Status) -> Self {
    var persistence = Self()
    persistence.status = status
    return persistence
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
