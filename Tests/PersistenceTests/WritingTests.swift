import AppFeature
import Clocks
import Composable
import ComposableTestSupport
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Persistence
import StandupDetail
import StorageClient
import StorageTestSupport
import Testing

/// Every change the app announces is written at once, one transaction each, in order; a write
/// that fails is kept and tried again, and nothing is lost.
@MainActor
struct WritingTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aChangeIsWrittenAtOnce() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(on: folder.database())

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id))))) {
      $0.app.list.standups = [.engineeringMock]
    }
    await store.receive(\.app.delegate.standupsChanged, .deleted(Standup.mock.id)) {
      $0.storage.pendingWrites = [.change(.deleted(Standup.mock.id))]
      $0.storage.isWriting = true
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites = []
      $0.storage.isWriting = false
    }
    #expect(try await folder.stored() == [.engineeringMock])
  }

  @Test func aChangeMadeWhileAnotherIsWrittenWaitsForItAndFollowsIt() async throws {
    try await folder.seed([.mock])
    let database = folder.database()
    let gate = Gate()
    // NB: The database, behind a gate the test opens: the first write is under way until then.
    var storage = StorageClient.database(database)
    storage.apply = { change in
      await gate.pass()
      return try await database.apply(change)
    }
    let store = await makeStore(on: database, storage: storage)
    let samples: [Standup] = [.engineeringMock, .productMock]

    await store.send(.app(.list(.delegate(.loadSampleData)))) {
      $0.app.list.standups = [.mock, .engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged, .added(samples)) {
      $0.storage.pendingWrites = [.change(.added(samples))]
      $0.storage.isWriting = true
    }
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id))))) {
      $0.app.list.standups = [.engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged, .deleted(Standup.mock.id)) {
      $0.storage.pendingWrites.append(.change(.deleted(Standup.mock.id)))
    }
    #expect(try await folder.stored() == [.mock], "nothing is written yet")
    gate.open()
    await store.receive(\.written) {
      $0.storage.pendingWrites.removeFirst()
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites = []
      $0.storage.isWriting = false
    }
    #expect(try await folder.stored() == [.engineeringMock, .productMock])
  }

  @Test func aWriteThatFailsIsToldAndTriedAgainOnItsOwnLaterAndLater() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let clock = TestClock()
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 }, clock: clock)
    let busy = try #require(await WriteLock(onDatabaseAt: folder.databasePath))
    // NB: The error's words come from SQLite, so the steps are checked by their parts.
    store.exhaustivity = .off

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    let error = try #require(store.state.storage.lastWriteError)
    guard case .writeFailed(let problem) = error else {
      Issue.record("Expected a failed write, got \(error)")
      return
    }
    #expect(problem.reason == .busy)
    #expect(store.state.alert == nil, "the status line tells it; the write lands on its own")
    #expect(
      store.state.storage.problem
        == """
        Waiting for another program that holds the database (\(folder.databasePath)); your \
        changes are saved once it lets go.
        """)
    #expect(store.state.storage.retryDelay == .seconds(1))

    await clock.advance(by: .seconds(1))
    await store.receive(\.retryDelayEnded)
    await store.receive(\.writeFailed)
    #expect(store.state.storage.retryDelay == .seconds(2))

    await busy.release()
    await clock.advance(by: .milliseconds(1999))
    #expect(try await folder.stored().count == 2, "not tried before its time")
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.retryDelayEnded)
    await store.receive(\.written)
    #expect(try await folder.stored() == [.engineeringMock])
    #expect(store.state.storage.problem == nil)
    #expect(store.state.storage.pendingWrites.isEmpty)
    #expect(store.state.storage.retryDelay == .seconds(1))
  }

  @Test func aFlushWritesWhatIsPendingAndWhoeverSentItCanWait() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let busy = try #require(await WriteLock(onDatabaseAt: folder.databasePath))
    store.exhaustivity = .off
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    await busy.release()

    await store.send(.flushPendingWrites).finish()
    await store.receive(\.written)

    #expect(store.state.storage.pendingWrites.isEmpty)
    #expect(try await folder.stored() == [])
  }

  /// The retry after a failed write waits on the clock; a test that has seen what it wanted
  /// skips what was received and finishes, leaving the retry to the store's end.
  @Test func aTestMayFinishWithAFailedWritesRetryStillWaiting() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let busy = try #require(await WriteLock(onDatabaseAt: folder.databasePath))
    store.exhaustivity = .off
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    await store.skipReceivedActions(strict: false)
    #expect(store.state.storage.pendingWrites.count == 1)
    await store.finish()
    await busy.release()
  }

  @Test func aFailedWriteIsToldOnlyOnceTheUserHasAnsweredTheirQuestion() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let database = folder.database()
    var storage = StorageClient.database(database)
    let full = StorageError.writeFailed(
      FileProblem(path: folder.databasePath, reason: .diskFull, technicalDetail: "SQLITE_FULL"))
    storage.apply = { _ in throw full }
    let store = await makeStore(
      on: database, storage: storage,
      path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    await store.send(.app(.path(.element(id: 0, action: .detail(.deleteButtonTapped))))) {
      $0.app.path[id: 0, case: \.detail]?.alert = .deleteStandup
    }
    store.exhaustivity = .off

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.engineeringMock.id)))))
    await store.receive(\.writeFailed)
    #expect(store.state.alert == nil, "the question on screen is not replaced")
    let error = try #require(store.state.storage.lastWriteError)
    #expect(store.state.storage.waitingAlerts == [.saveFailed(error)])

    await store.send(.app(.path(.element(id: 0, action: .detail(.alert(.dismiss))))))
    #expect(store.state.alert == .saveFailed(error))
    #expect(store.state.storage.waitingAlerts.isEmpty)
  }

  @Test func aFileMovedAwayIsToldOnceHoweverManyStepsFindItGone() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(on: folder.database())
    #expect(
      rename(folder.databasePath, folder.url.appendingPathComponent("moved.sqlite").path) == 0)
    store.exhaustivity = .off

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    guard case .notSaving(let error) = store.state.storage.status, case .replaced = error else {
      Issue.record("Expected saving to stop, got \(store.state.storage.status)")
      return
    }
    #expect(store.state.alert == .stoppedSaving(error))

    // NB: A read of changes elsewhere under way when the write failed finds the file gone too,
    // before and after the user has read the alert.
    await store.send(.writeFailed(error))
    #expect(store.state.alert == .stoppedSaving(error))
    #expect(store.state.storage.waitingAlerts.isEmpty)
    await store.send(.alert(.dismiss))
    await store.send(.writeFailed(error))
    #expect(store.state.alert == nil)
    #expect(store.state.storage.waitingAlerts.isEmpty)
  }
}

/// A gate effects wait at until the test opens it.
final class Gate: Sendable {
  private let opened = AsyncStream<Void>.makeStream()

  /// Waits until the gate is open.
  func pass() async {
    for await _ in opened.stream {}
  }

  /// Opens the gate, for every effect waiting and every one to come.
  func open() {
    opened.continuation.finish()
  }
}
