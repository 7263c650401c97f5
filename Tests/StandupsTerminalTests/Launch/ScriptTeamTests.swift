import ConcurrencyExtras
import Foundation
import Models
import StandupsTerminal
import StorageClient
import StorageTestSupport
import Testing

/// `standups --script` on a machine in a team shows what the live app shows, from what the
/// database holds: the shared standups marked, `t` sharing one, and the question about a
/// standup another member deleted, which its keys answer as the live app's do. There is no
/// server: the team's side is written through the database's own API, as a round of the sync
/// engine writes it (`TeamLedgerTests`).
@MainActor
struct ScriptTeamTests {
  static let machine = UUID(uuidString: "00000000-0000-0000-0000-0000000000A0")!
  static let bobsMachine = UUID(uuidString: "00000000-0000-0000-0000-0000000000B0")!

  @Test func aSharedStandupIsMarkedAsTheLiveAppMarksItAndTSharesAnother() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await joinedDatabase(at: file, holding: [.mock, .engineeringMock])
    try await database.share([Standup.mock.id])

    let frames = try await runScript(
      """
      screen
      down
      enter
      t
      screen
      s     # Share
      esc
      screen
      q
      """, on: file)

    let live = await Driver(standups: [.mock, .engineeringMock])
    live.app.showTeam(["platform"], status: nil, shared: [Standup.mock.id: "platform"])
    await live.start()
    try #require(frames.count == 3)
    #expect(frames.first == live.screen + "\n")
    #expect(row(showing: "Design", in: frames[0])?.contains("•") == true)
    #expect(row(showing: "Engineering", in: frames[0])?.contains("•") == false)
    #expect(frames[1].contains("Share “Engineering” with “platform”?"))
    #expect(row(showing: "Engineering", in: frames[2])?.contains("•") == true)
    #expect(
      try await database.sharedStandupIDs() == [Standup.mock.id, Standup.engineeringMock.id])
  }

  /// In two teams, `t` asks which, one button a team; the standup's screen and the list say
  /// which team each shared standup is in.
  @Test func inTwoTeamsTAsksWhichTeamAndTheStandupsScreenNamesIt() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await joinedDatabase(at: file, holding: [.mock, .engineeringMock])
    let platform = try #require(try await database.teamMemberships().first)
    let design = try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "design", machine: UUID())
    try await database.share([Standup.mock.id], with: platform.id)

    let frames = try await runScript(
      """
      enter
      screen
      esc
      down
      enter
      t
      screen
      right
      right
      enter
      screen
      esc
      screen
      q
      """, on: file)

    try #require(frames.count == 4)
    #expect(frames[0].contains("Team platform"), "\(frames[0])")
    #expect(frames[1].contains("Share “Engineering” with which team?"))
    #expect(
      frames[1].contains("Share with “platform”") && frames[1].contains("Share with “design”"))
    #expect(frames[2].contains("Team design"), "\(frames[2])")
    #expect(row(showing: "Design", in: frames[3])?.contains("platform") == true, "\(frames[3])")
    #expect(row(showing: "Engineering", in: frames[3])?.contains("design") == true)
    #expect(try await database.sharedStandupIDs(in: design.id) == [Standup.engineeringMock.id])
    #expect(try await database.sharedStandupIDs(in: platform.id) == [Standup.mock.id])
  }

  @Test func aTeammatesDeletionIsAskedAboutAndKeepItSendsTheStandupAgain() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await databaseAskingAboutBobsDeletion(at: file)
    let standups = try await database.readStandups()
    let shared = try await database.sharedStandupIDs()
    let questions = try await database.teamDeletionQuestions()
    let live = await Driver(standups: standups)
    live.app.showTeam(
      ["platform"], status: nil,
      shared: Dictionary(uniqueKeysWithValues: shared.map { ($0, "platform") }))
    live.app.askAboutTeamDeletions(questions)
    await live.start()

    // NB: Up as the script starts, the question takes keys only after a pause, as in the live
    // app: the first `k` is typed ahead of it.
    let frames = try await runScript("screen\nk\nscreen\nwait 1s\nk\nscreen\nq\n", on: file)

    try #require(frames.count == 3)
    #expect(frames.first == live.screen + "\n")
    #expect(frames[0].contains("“Waiting here” was deleted by bob"))
    #expect(frames[0].contains("Keep it") && frames[0].contains("Let it go"))
    #expect(frames[1].contains("was deleted by bob") && frames[1].contains("Ignored 1 key"))
    #expect(!frames[2].contains("was deleted by bob"))
    #expect(row(showing: "Waiting here", in: frames[2])?.contains("•") == true)
    #expect(try await database.teamDeletionQuestions().isEmpty)
    let kept = try #require(try await database.readStandups()[id: Standup.mock.id])
    #expect(kept.title == "Waiting here")
    let sentAgain = try await database.waitingTeamChanges(limit: 10).suffix(2)
      .map { try decode($0.change) }
    #expect(
      sentAgain == [.added([kept]), .edited(kept.id, StandupEdit(restating: kept))],
      "the team's again, as it is here")
  }

  @Test func letItGoDeletesTheStandupHereAndSendsNothing() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await databaseAskingAboutBobsDeletion(at: file)
    let waiting = try await database.waitingTeamChanges(limit: 10)

    let frames = try await runScript("screen\nwait 1s\nl\nscreen\nq\n", on: file)

    try #require(frames.count == 2)
    #expect(frames[0].contains("“Waiting here” was deleted by bob"))
    #expect(frames[1].contains("No standups yet."))
    #expect(try await database.readStandups().isEmpty)
    #expect(try await database.teamDeletionQuestions().isEmpty)
    #expect(
      try await database.waitingTeamChanges(limit: 10) == waiting,
      "nothing sent: the server has the deletion")
  }

  @Test func escPutsTheQuestionAwayUntilTheNextLaunch() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await databaseAskingAboutBobsDeletion(at: file)
    let waiting = try await database.waitingTeamChanges(limit: 10)

    let frames = try await runScript("wait 1s\nesc\nscreen\nq\n", on: file)

    try #require(frames.count == 1)
    #expect(!frames[0].contains("was deleted by bob"))
    #expect(row(showing: "Waiting here", in: frames[0]) != nil, "kept here, unanswered")
    #expect(try await database.teamDeletionQuestions().map(\.standup.id) == [Standup.mock.id])
    #expect(try await database.waitingTeamChanges(limit: 10) == waiting, "nothing sent")
    let again = try await runScript("screen\nq\n", on: file)
    #expect(again.first?.contains("“Waiting here” was deleted by bob") == true)
  }

  /// Two instances show the same question, and the other one's answer reaches the database: the
  /// next time this one reads what changed elsewhere (a script's `wait`, the live app's every two
  /// seconds), the question here closes, saying so, rather than take a second answer.
  @Test func aQuestionAnsweredInAnotherInstanceClosesHereSayingSo() async throws {
    let file = try dataFile()
    defer { removeFolder(of: file) }
    let database = try await databaseAskingAboutBobsDeletion(at: file)
    let live = await Driver(standups: try await database.readStandups())
    live.app.askAboutTeamDeletions(try await database.teamDeletionQuestions())
    await live.start()
    #expect(live.screen.contains("“Waiting here” was deleted by bob"))

    try await database.answerTeamDeletion(of: Standup.mock.id, keep: false)
    live.app.askAboutTeamDeletions(try await database.teamDeletionQuestions())

    #expect(!live.screen.contains("Keep it"), "the question closed")
    #expect(
      live.app.notice
        == "“Waiting here” was deleted by bob: another instance of Standups answered.")
  }

  /// Runs `script` as `standups --script - --data-file FILE` does, and returns the frames its
  /// `screen` lines printed.
  private func runScript(_ script: String, on file: URL) async throws -> [String] {
    let frames = LockIsolated<[String]>([])
    let status = try await Launcher.runScript(
      script,
      options: LaunchOptions(dataFile: file, isDataFileGiven: true, sessionFile: nil, now: day(0))
    ) { frame in
      frames.withValue { $0.append(frame) }
    }
    #expect(status == 0)
    return frames.value
  }

  /// A data file in a folder of its own, which ``removeFolder(of:)`` removes.
  private func dataFile() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("script-team-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("standups.sqlite")
  }

  private func removeFolder(of file: URL) {
    try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
  }

  /// The database at `file` holding `standups`, on a machine that has joined “platform”.
  private func joinedDatabase(at file: URL, holding standups: [Standup]) async throws
    -> StandupsDatabase
  {
    let database = StandupsDatabase(path: file.path)
    _ = try await database.load()
    try await database.apply(.added(standups))
    try await database.joinTeam(
      server: "postgresql://alice@127.0.0.1/team", team: "platform", machine: Self.machine)
    return database
  }

  /// The database at `file` in “platform”, holding Design, shared, which this machine renamed
  /// “Waiting here” before it heard that bob had deleted it: kept, with the question recorded,
  /// as the ledger records a pull (`TeamLedgerTests`).
  private func databaseAskingAboutBobsDeletion(at file: URL) async throws -> StandupsDatabase {
    let database = try await joinedDatabase(at: file, holding: [.mock])
    try await database.share([Standup.mock.id])
    let shared = try #require(try await database.waitingTeamChanges(limit: 1).first)
    try await database.teamChangesPushed(through: shared.machineSequence)
    try await database.apply(.edited(Standup.mock.id, StandupEdit(title: "Waiting here")))
    // NB: The server's order: this machine's share, then bob's deletion, which reached the
    // server before this machine's rename did.
    let report = try await database.applyPulledTeamChanges(
      [
        PulledTeamChange(
          sequence: 4, machine: Self.machine, machineSequence: shared.machineSequence,
          madeBy: "alice",
          change: shared.change),
        PulledTeamChange(
          sequence: 5, machine: Self.bobsMachine, machineSequence: 1, madeBy: "bob",
          change: try encode(.deleted(Standup.mock.id))),
      ], through: 5, as: "alice")
    #expect(report.deletedWhileChangedHere == [Standup.mock.id])
    return database
  }

  /// The row of `frame` that shows `text`.
  private func row(showing text: String, in frame: String) -> Substring? {
    frame.split(separator: "\n").first { $0.contains(text) }
  }

  private func encode(_ change: StandupsChange) throws -> String {
    String(decoding: try JSONEncoder().encode(change), as: UTF8.self)
  }

  private func decode(_ text: String) throws -> StandupsChange {
    try JSONDecoder().decode(StandupsChange.self, from: Data(text.utf8))
  }
}
