import Foundation
import GRDB
import Models
import StorageTestSupport
import Testing

@testable import StandupsTerminal
@testable import StorageClient

/// The teams on the app's screen follow the database, not the launch: a team this machine left
/// while the app ran (the owner removed it, or `team leave` in a shell) is no longer offered by
/// `t`, and its standups show as personal.
@MainActor
struct TeamOnScreenTests {
  @Test func aTeamLeftWhileTheAppRunsIsNoLongerOfferedAndSharingWithItSaysSo() async throws {
    let (folder, file) = try Self.dataFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = StandupsDatabase(path: file.path)
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))
    let server = "postgresql://alice@127.0.0.1/team"
    let platform = try await database.joinTeam(server: server, team: "platform", machine: UUID())
    try await database.joinTeam(server: server, team: "design", machine: UUID())
    try await database.share([Standup.mock.id], with: platform.id)
    let driver = await Driver(standups: [.mock, .engineeringMock])

    let team = try #require(await TeamOnScreen.show(dataFile: file, on: driver.app))
    #expect(driver.app.view.teamNames == ["platform", "design"])
    #expect(driver.app.view.sharedStandups == [Standup.mock.id: "platform"])

    try await database.leaveTeam(platform.id)
    await team.showSharedStandups(on: driver.app)
    #expect(driver.app.view.teamNames == ["design"])
    #expect(driver.app.view.sharedStandups.isEmpty)

    // NB: A question asked before the leave is answered after it.
    await driver.app.shareWithTeam?(Standup.engineeringMock.id, "platform")
    #expect(driver.app.notice?.contains("no longer in “platform”") == true)
    #expect(try await database.sharedStandupTeams().isEmpty)
  }

  /// Two servers may each have a team called "platform": the app names each with its server, on
  /// `t`'s buttons and in the list, and a share goes to the one the button named.
  @Test func twoTeamsOfOneNameOnTwoServersAreNamedWithTheirServers() async throws {
    let (folder, file) = try Self.dataFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = StandupsDatabase(path: file.path)
    _ = try await database.load()
    try await database.apply(.added([.mock, .engineeringMock]))
    let first = "postgresql://alice@first.example/team"
    let second = "postgresql://alice@second.example/team"
    try await database.joinTeam(server: first, team: "platform", machine: UUID())
    let onSecond = try await database.joinTeam(server: second, team: "platform", machine: UUID())
    try await database.joinTeam(server: second, team: "design", machine: UUID())
    let driver = await Driver(standups: [.mock, .engineeringMock])

    _ = try #require(await TeamOnScreen.show(dataFile: file, on: driver.app))
    #expect(
      driver.app.view.teamNames == ["platform on \(first)", "platform on \(second)", "design"])

    await driver.app.shareWithTeam?(Standup.mock.id, "platform on \(second)")
    #expect(try await database.sharedStandupTeams() == [Standup.mock.id: onSecond.id])
    #expect(driver.app.view.sharedStandups == [Standup.mock.id: "platform on \(second)"])
  }

  /// The release before's database, in a team, held by another program at launch: the live
  /// app's team tables cannot be read until the app has migrated it, so the team shows (and
  /// its engine starts) once they can, rather than never in that session.
  @Test func aTeamInADatabaseHeldAtLaunchShowsOnceTheDatabaseIsUpToDate() async throws {
    let (folder, file) = try Self.dataFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let queue = try DatabaseQueue(path: file.path)
    _ = try await queue.writeWithoutTransaction {
      try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL")
    }
    try Schema.migrator.migrate(queue, upTo: "standups v7")
    try await queue.write { db in
      try db.execute(
        sql: """
          INSERT INTO teamMembership (singleton, server, team, machine, lastSequence)
          VALUES (1, 'postgresql://alice@127.0.0.1/team', 'platform', ?, 0)
          """, arguments: [UUID().uuidString])
    }
    try queue.close()
    let lock = try #require(await WriteLock(onDatabaseAt: file.path))
    let driver = await Driver(standups: [])

    let showing = Task { @MainActor in
      await TeamOnScreen.show(
        dataFile: file, on: driver.app, waitingForTheDatabase: .milliseconds(20))
    }
    let app = StandupsDatabase(path: file.path)
    guard case .waiting = try await app.load().opening else {
      Issue.record("the database was migrated while another program held it")
      return
    }
    #expect(driver.app.view.teamNames.isEmpty)
    await lock.release()
    _ = try await app.finishOpening()
    #expect(await showing.value != nil)
    #expect(driver.app.view.teamNames == ["platform"])
  }

  /// A share that cannot be written (another program holds the database past the wait) says so,
  /// and the standup stays personal; once the program lets go, the share goes through.
  @Test func aShareThatCannotBeWrittenSaysSoAndTheStandupStaysYours() async throws {
    let (folder, file) = try Self.dataFile()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = StandupsDatabase(path: file.path)
    _ = try await database.load()
    try await database.apply(.added([.mock]))
    let platform = try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: UUID())
    let driver = await Driver(standups: [.mock])
    _ = try #require(await TeamOnScreen.show(dataFile: file, on: driver.app))

    let lock = try #require(await WriteLock(onDatabaseAt: file.path))
    await driver.app.shareWithTeam?(Standup.mock.id, "platform")
    await lock.release()
    #expect(driver.app.notice?.contains("was not shared with “platform”") == true)
    #expect(driver.app.notice?.contains("another program") == true, "\(driver.app.notice ?? "")")
    #expect(try await database.sharedStandupTeams().isEmpty)
    #expect(driver.app.view.sharedStandups.isEmpty)

    await driver.app.shareWithTeam?(Standup.mock.id, "platform")
    #expect(try await database.sharedStandupTeams() == [Standup.mock.id: platform.id])
  }

  /// A database path in a folder of the test's own, which the test removes.
  static func dataFile() throws -> (folder: URL, file: URL) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("team-on-screen-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return (folder, folder.appendingPathComponent("standups.sqlite"))
  }
}
