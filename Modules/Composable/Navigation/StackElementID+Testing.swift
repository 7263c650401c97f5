// What a test store does with a store's generator: it records the IDs each action generates,
// and replays them while applying the test's assertion, so that the elements the assertion
// creates get the IDs the reducer gave them.

extension StackElementIDGenerator {
  /// A generator that hands out `ids`, in order, and then counts from `next`: what a test store
  /// uses while applying an assertion, so that the elements it creates get the IDs the reducer
  /// gave them, even where the state it is applied to already holds them.
  package static func replaying(_ ids: [StackElementID], thenFrom next: StackElementID) -> Self {
    Self(Source.State(next: next.rawValue, replay: ids[...]), replaysIDs: true)
  }

  /// Starts remembering the IDs this generator hands out, for ``takeRecorded()``.
  package func startRecording() {
    source.state.withLock { state in state.recorded = [] }
  }

  /// The IDs handed out since recording started or since the last call, in order.
  package func takeRecorded() -> [StackElementID] {
    source.state.withLock { state in
      defer { if state.recorded != nil { state.recorded = [] } }
      return state.recorded ?? []
    }
  }
}
