import AppFeature
import Composable
import ComposableTestSupport
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Persistence
import StandupDetail
import StorageClient
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

  @Test func aWriteThatFailsIsKeptToldAndWrittenWithTheNextChange() async throws {
    try await folder.seed([.mock, .engineeringMock, .productMock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let other = try DatabaseQueue(path: folder.databasePath)

    // NB: Another program holds the database's write lock past the app's wait.
    let busy = try #require(await holdingTheWriteLock(other))
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id))))) {
      $0.app.list.standups = [.engineeringMock, .productMock]
    }
    await store.receive(\.app.delegate.standupsChanged) {
      $0.storage.pendingWrites = [.change(.deleted(Standup.mock.id))]
      $0.storage.isWriting = true
    }
    // NB: The error's words come from SQLite, so this step is checked by its parts below.
    store.exhaustivity = .off
    await store.receive(\.writeFailed)
    store.exhaustivity = .on
    #expect(store.state.storage.isWriting == false)
    #expect(store.state.storage.pendingWrites == [.change(.deleted(Standup.mock.id))])
    let error = try #require(store.state.storage.lastWriteError)
    guard case .writeFailed(let problem) = error else {
      Issue.record("Expected a failed write, got \(error)")
      return
    }
    #expect(problem.reason == .busy)
    #expect(store.state.alert == .saveFailed(error))
    #expect(store.state.storage.hasChangesNotInTheDataFile)
    #expect(store.state.storage.problem == error.description)
    await busy.release()

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.productMock.id))))) {
      $0.app.list.standups = [.engineeringMock]
    }
    await store.receive(\.app.delegate.standupsChanged) {
      $0.storage.pendingWrites.append(.change(.deleted(Standup.productMock.id)))
      $0.storage.isWriting = true
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites.removeFirst()
      $0.storage.lastWriteError = nil
    }
    await store.receive(\.written) {
      $0.storage.pendingWrites = []
      $0.storage.isWriting = false
    }
    #expect(try await folder.stored() == [.engineeringMock])
    #expect(!store.state.storage.hasChangesNotInTheDataFile)
  }

  @Test func aFlushWritesWhatIsPendingAndWhoeverSentItCanWait() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let busy = try #require(await holdingTheWriteLock(try DatabaseQueue(path: folder.databasePath)))
    store.exhaustivity = .off
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    await busy.release()

    await store.send(.flushPendingWrites).finish()
    await store.skipReceivedActions()

    #expect(store.state.storage.pendingWrites.isEmpty)
    #expect(try await folder.stored() == [])
  }

  @Test func aFailedWriteIsToldOnlyOnceTheUserHasAnsweredTheirQuestion() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(
      on: folder.database { $0.busyTimeout = 0.05 },
      path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    await store.send(.app(.path(.element(id: 0, action: .detail(.deleteButtonTapped))))) {
      $0.app.path[id: 0, case: \.detail]?.alert = .deleteStandup
    }
    let busy = try #require(await holdingTheWriteLock(try DatabaseQueue(path: folder.databasePath)))
    store.exhaustivity = .off

    await store.send(.app(.list(.delegate(.deleteStandup(Standup.engineeringMock.id)))))
    await store.receive(\.writeFailed)
    #expect(store.state.alert == nil, "the question on screen is not replaced")
    let error = try #require(store.state.storage.lastWriteError)
    #expect(store.state.storage.waitingAlerts == [.saveFailed(error)])

    await store.send(.app(.path(.element(id: 0, action: .detail(.alert(.dismiss))))))
    #expect(store.state.alert == .saveFailed(error))
    #expect(store.state.storage.waitingAlerts.isEmpty)
    await busy.release()
  }

  /// Holds `queue`'s write lock, in a transaction of its own, until `release()`.
  private func holdingTheWriteLock(_ queue: DatabaseQueue) async -> WriteLock? {
    await WriteLock(queue)
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

/// A write lock another connection holds: a `BEGIN IMMEDIATE` left open on a thread of its own.
final class WriteLock: Sendable {
  private let released = DispatchSemaphore(value: 0)
  private let events: AsyncStream<Bool>

  init?(_ queue: DatabaseQueue) async {
    let (events, continuation) = AsyncStream<Bool>.makeStream()
    self.events = events
    let released = self.released
    Thread {
      do {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: "BEGIN IMMEDIATE")
          continuation.yield(true)
          released.wait()
          try db.execute(sql: "ROLLBACK")
        }
      } catch {
        continuation.yield(false)
      }
      continuation.finish()
    }.start()
    for await taken in events {
      guard taken else { return nil }
      return
    }
    return nil
  }

  /// Lets the lock go, and waits until it is gone.
  func release() async {
    released.signal()
    for await _ in events {}
  }
}
