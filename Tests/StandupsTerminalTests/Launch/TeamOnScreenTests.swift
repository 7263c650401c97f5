import Foundation
import Models
import StorageClient
import Testing

@testable import StandupsTerminal

/// The teams on the app's screen follow the database, not the launch: a team this machine left
/// while the app ran (the owner removed it, or `team leave` in a shell) is no longer offered by
/// `t`, and its standups show as personal.
@MainActor
struct TeamOnScreenTests {
  @Test func aTeamLeftWhileTheAppRunsIsNoLongerOfferedAndSharingWithItSaysSo() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("team-on-screen-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("standups.sqlite")
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
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("team-on-screen-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("standups.sqlite")
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
}
