import AppFeature
import Clocks
import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StandupsTerminal
import StorageClient
import TerminalUI
import Testing

/// A ``TerminalApp`` over a real `Store<AppFeature.State, AppFeature.Action>`, with a test clock,
/// in-memory storage and the typed transcript, driven by keys as a person would drive it.
@MainActor
final class Driver {
  let app: TerminalApp
  let clock = TestClock()
  let storage: InMemoryStorage
  var size = wide

  init(standups: IdentifiedArrayOf<Standup> = [], now: Date = day(0)) {
    let storage = InMemoryStorage(standups: standups)
    let transcript = TypedTranscript()
    let clock = self.clock
    self.storage = storage
    let store = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient = transcript.client
      $0.storageClient = storage.client
      $0.uuid = .incrementing
    }
    app = TerminalApp(
      store: store, transcript: transcript, format: utc,
      now: { TestClock<Duration>.Instant().duration(to: clock.now) })
  }

  var state: AppFeature.State { app.store.state }

  /// Starts the app and waits for the standups to load.
  func start() async {
    app.start()
    await settle(until: { self.state.persistence.status == .loaded }, "the standups to load")
  }

  /// Presses keys, one after the other.
  func press(_ keys: Key...) {
    for key in keys { app.press(key, size: size) }
  }

  /// Types text, one character at a time.
  func type(_ text: String) {
    for character in text { app.press(.character(character), size: size) }
  }

  /// Lets effects run until `condition` holds; fails the test if it never does.
  func settle(
    until condition: () -> Bool,
    _ description: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    for _ in 0..<1_000 {
      if condition() { return }
      await Task.megaYield()
    }
    Issue.record("Gave up waiting for \(description).", sourceLocation: sourceLocation)
  }

  /// The screen as text.
  var screen: String {
    app.render(size: size).plainText
  }
}
