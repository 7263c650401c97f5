import AppFeature
import Clocks
import Composable
import ConcurrencyExtras
import Dependencies
import Foundation
import IdentifiedCollections
import Models
import Persistence
import StandupsTerminal
import StorageClient
import TerminalUI
import Testing

/// A ``TerminalApp`` over a real `Store<PersistedApp.State, PersistedApp.Action>`, with a test
/// clock, a real SQLite database (in memory unless given) and the typed transcript, driven by keys
/// as a person would drive it.
@MainActor
final class Driver {
  let app: TerminalApp
  let clock = TestClock()
  let database: StandupsDatabase
  var size = wide

  /// A driver over `standups` in a database in memory, or over what `database` holds.
  init(
    standups: IdentifiedArrayOf<Standup> = [],
    now: Date = day(0),
    database: StandupsDatabase? = nil
  ) async {
    let database = database ?? StandupsDatabase(inMemoryHolding: standups)
    let transcript = TypedTranscript()
    let clock = self.clock
    self.database = database
    let stored: Result<StoredStandups, StorageError>
    do {
      stored = .success(try await database.load())
    } catch {
      stored = .failure(error)
    }
    let store = Store(initialState: PersistedApp.State(stored: stored)) {
      PersistedApp()
    } withDependencies: {
      $0.continuousClock = clock
      $0.date.now = now
      $0.soundClient.playSpeakerChange = {}
      $0.speechClient = transcript.client
      $0.storageClient = .database(database)
      $0.uuid = .incrementing
    }
    app = TerminalApp(
      store: store, transcript: transcript, format: utc,
      now: { TestClock<Duration>.Instant().duration(to: clock.now) })
  }

  /// The app's screens.
  var state: AppFeature.State { app.store.state.app }

  /// The app with its data's state.
  var persisted: PersistedApp.State { app.store.state }

  /// Starts the app.
  func start() async {
    app.start()
  }

  /// What the database holds once every pending write is done.
  func stored() async -> IdentifiedArrayOf<Standup>? {
    await app.flush()
    return try? await database.readStandups()
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
