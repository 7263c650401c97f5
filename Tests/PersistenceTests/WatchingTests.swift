import AppFeature
import Composable
import ComposableTestSupport
import Foundation
import IdentifiedCollections
import Models
import Persistence
import RecordMeeting
import StandupDetail
import StorageClient
import Testing

/// What another instance commits is shown here, without undoing anything done here.
@MainActor
struct WatchingTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aLookWhenNothingChangedDoesNothing() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database())

    await store.send(.lookForChangesElsewhere)
    await store.finish()
  }

  @Test func anotherInstancesEditReachesTheListAndEveryScreen() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(
      on: folder.database(), path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.edited(Standup.mock.id, StandupEdit(theme: .oxblood)))
    var changed = Standup.mock
    changed.theme = .oxblood

    await store.send(.lookForChangesElsewhere)
    await store.receive(\.changesElsewhereFound) {
      $0.app.list.standups = [changed]
      $0.app.path[id: 0, case: \.detail]?.standup = changed
    }
  }

  @Test func aStandupDeletedElsewhereClosesItsScreensHere() async throws {
    try await folder.seed([.mock, .engineeringMock])
    let store = await makeStore(
      on: folder.database(), path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.mock.id))

    await store.send(.lookForChangesElsewhere)
    await store.receive(\.changesElsewhereFound) {
      $0.app.list.standups = [.engineeringMock]
      $0.app.path = StackState()
    }
  }

  @Test func aStandupDeletedElsewhereWhileItsMeetingIsRecordedHereIsKeptAndStoredAgain()
    async throws
  {
    try await folder.seed([.engineeringMock])
    let store = await makeStore(
      on: folder.database(),
      path: StackState([.record(RecordMeeting.State(standup: .engineeringMock))]))
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.deleted(Standup.engineeringMock.id))
    store.exhaustivity = .off

    await store.send(.lookForChangesElsewhere)
    await store.receive(\.changesElsewhereFound)
    await store.receive(\.written)
    await store.receive(\.written)

    #expect(store.state.app.list.standups == [.engineeringMock])
    #expect(try await folder.stored() == [.engineeringMock])
  }

  @Test func aChangeNotYetWrittenHereStaysOnScreenOverAChangeElsewhere() async throws {
    try await folder.seed([.mock])
    let store = await makeStore(on: folder.database { $0.busyTimeout = 0.05 })
    let other = try DatabaseQueueOnFile(folder.databasePath)
    store.exhaustivity = .off

    let lock = try #require(await WriteLock(other.queue))
    await store.send(.app(.list(.delegate(.deleteStandup(Standup.mock.id)))))
    await store.receive(\.writeFailed)
    await lock.release()
    let elsewhere = folder.database()
    _ = try await elsewhere.load()
    try await elsewhere.apply(.edited(Standup.mock.id, StandupEdit(title: "Renamed there")))

    await store.send(.lookForChangesElsewhere)
    await store.receive(\.changesElsewhereFound)

    #expect(store.state.app.list.standups.isEmpty, "the deletion made here is not undone")
  }
}
