import Dependencies
import Foundation
import IdentifiedCollections
import Models
import StorageClient
import Testing

/// Instances of the app on one database see each other's commits, by a read that costs the
/// same whatever the data holds, and never write over each other.
struct ChangesElsewhereTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func aReadFindsWhatAnotherInstanceAddedChangedAndDeleted() async throws {
    let first = folder.database()
    let second = folder.database()
    _ = try await first.load()
    try await first.apply(.added([.mock, .engineeringMock]))
    _ = try await second.load()

    try await first.apply(.edited(Standup.mock.id, StandupEdit(title: "Design review")))
    try await first.apply(.deleted(Standup.engineeringMock.id))
    try await first.apply(.added([.productMock]))

    var retitled = Standup.mock
    retitled.title = "Design review"
    #expect(
      try await second.changesElsewhere()
        == ChangesElsewhere(
          standups: [retitled, .productMock], deleted: [Standup.engineeringMock.id]))
    #expect(try await second.changesElsewhere() == nil, "seen once")
  }

  @Test func aStandupATeammateDeletedIsReportedWithWhoDeletedIt() async throws {
    let engine = folder.database()
    let app = folder.database()
    _ = try await engine.load()
    try await engine.apply(.added([.mock, .engineeringMock]))
    let machine = UUID()
    try await engine.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: machine)
    try await engine.share([Standup.mock.id, Standup.engineeringMock.id])
    let shares = try await engine.waitingTeamChanges(limit: 10)
    try await engine.teamChangesPushed(through: shares.last?.machineSequence ?? 0)
    _ = try await app.load()

    // NB: The server's order: this machine's shares, then bob's deletion, made after them.
    try await engine.apply(.deleted(Standup.engineeringMock.id))
    _ = try await engine.applyPulledTeamChanges(
      shares.enumerated().map { index, share in
        PulledTeamChange(
          sequence: Int64(index + 1), machine: machine, machineSequence: share.machineSequence,
          madeBy: "alice", change: share.change)
      } + [
        PulledTeamChange(
          sequence: 3, machine: UUID(), machineSequence: 1, madeBy: "bob", basedOn: 2,
          change: String(
            decoding: try JSONEncoder().encode(StandupsChange.deleted(Standup.mock.id)),
            as: UTF8.self))
      ], through: 3, as: "alice")

    let changes = try #require(try await app.changesElsewhere())
    #expect(Set(changes.deleted) == [Standup.mock.id, Standup.engineeringMock.id])
    #expect(changes.deletedBy == [Standup.mock.id: "bob"], "this machine deleted Engineering")
  }

  @Test func anIdleReadTakesOnlyOnePragma() async throws {
    let log = StatementLog()
    let watching = folder.database { $0.onStatement = log.record }
    let setUp = folder.database()
    _ = try await setUp.load()
    try await setUp.apply(.added((0..<500).map(Standup.numbered)))
    _ = try await watching.load()
    _ = log.take()

    for _ in 0..<5 {
      #expect(try await watching.changesElsewhere() == nil)
    }

    #expect(
      log.take().filter { !$0.hasPrefix("PRAGMA query_only") }
        == Array(repeating: "PRAGMA data_version", count: 5))
  }

  @Test func aReadAfterAnotherInstancesCommitFetchesOnlyTheStandupsItChanged() async throws {
    let log = StatementLog()
    let watching = folder.database { $0.onStatement = log.record }
    let other = folder.database()
    _ = try await other.load()
    try await other.apply(.added((0..<500).map(Standup.numbered)))
    _ = try await watching.load()
    try await other.apply(.edited(Standup.ID(UUID(7)), StandupEdit(title: "Seven")))
    _ = log.take()

    let changes = try await watching.changesElsewhere()

    #expect(changes?.standups.map(\.title) == ["Seven"])
    let reads = log.take().filter { $0.hasPrefix("SELECT") }
    #expect(
      reads.filter { ["standup", "attendee", "meeting"].contains(where: $0.readsTable) }
        .allSatisfy { $0.contains("WHERE") },
      "\(reads)")
  }

  /// Guards the one connection (`StandupsDatabase.queue`): on a pool, a read runs on a reader
  /// connection, whose `data_version` counts this instance's writes as another's.
  @Test func anInstanceIsNotToldOfItsOwnChanges() async throws {
    let database = folder.database()
    _ = try await database.load()

    try await database.apply(.added([.mock]))
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Mine")))

    #expect(try await database.changesElsewhere() == nil)
  }

  @Test func instancesOpeningANewDatabaseAtOnceAllOpenItAndLeaveNothingElse() async throws {
    for round in 0..<8 {
      let path = folder.path("round-\(round)/standups.sqlite")
      let accesses = try await withThrowingTaskGroup(of: StorageAccess.self) { group in
        for _ in 0..<4 {
          group.addTask { try await folder.database(at: path).load().access }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(accesses == Array(repeating: .readWrite, count: 4), "round \(round)")
      #expect(try folder.mode(path) == 0o600, "a new database is the user's only")
    }
    let leftovers = try FileManager.default.subpathsOfDirectory(atPath: folder.url.path)
      .filter { $0.contains(".creating-") }
    #expect(leftovers.isEmpty)
  }

  @Test func threeInstancesAddingAtOnceKeepEveryStandup() async throws {
    let instances = (0..<3).map { _ in folder.database() }
    for instance in instances {
      _ = try await instance.load()
    }

    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, instance) in instances.enumerated() {
        group.addTask {
          for number in 0..<20 {
            try await instance.apply(.added([Standup.numbered(index * 100 + number)]))
          }
        }
      }
      try await group.waitForAll()
    }

    #expect(try await folder.database().load().standups.count == 60)
  }

  @Test func anEditElsewhereAndADeletionHereLeaveItDeleted() async throws {
    let first = folder.database()
    let second = folder.database()
    _ = try await first.load()
    try await first.apply(.added([.mock]))
    _ = try await second.load()

    try await first.apply(.deleted(Standup.mock.id))
    try await second.apply(.edited(Standup.mock.id, StandupEdit(title: "Too late")))

    #expect(try await folder.database().load().standups == [])
    #expect(try await second.changesElsewhere() == ChangesElsewhere(deleted: [Standup.mock.id]))
  }
}

extension String {
  /// Whether the statement reads `table`.
  func readsTable(_ table: String) -> Bool {
    contains("FROM \"\(table)\"")
  }
}
