import TeamSync
import Testing

@testable import StandupsTerminal

/// The status line of a machine in several teams: each team that needs saying is named, and
/// teams offline for one reason share a sentence with their waiting changes added up, so that
/// the count stays on the line however many teams there are.
struct StatusLinesTests {
  let server = "127.0.0.1:5433/team"

  @Test func oneTeamSaysItsOwnLine() async {
    let lines = StatusLines()
    #expect(await lines.saying(.online(waiting: 0), of: "platform", among: ["platform"]) == nil)
    #expect(
      await lines.saying(
        .offline(waiting: 2, problem: .noAnswer(server: server)), of: "platform",
        among: ["platform"]) == "offline, the server does not answer — 2 changes waiting")
  }

  @Test func teamsOfflineForOneReasonShareASentenceWithTheirChangesAddedUp() async {
    let lines = StatusLines()
    let teams = ["platform", "design", "product"]
    _ = await lines.saying(
      .offline(waiting: 0, problem: .noAnswer(server: server)), of: "platform", among: teams)
    _ = await lines.saying(.online(waiting: 0), of: "product", among: teams)
    let said = await lines.saying(
      .offline(waiting: 1, problem: .noAnswer(server: server)), of: "design", among: teams)
    #expect(said == "“platform”, “design”: offline, the server does not answer — 1 change waiting")

    let refused = await lines.saying(
      .offline(waiting: 3, problem: .refused(server: "other", reason: "password")),
      of: "product", among: teams)
    #expect(
      refused
        == "“platform”, “design”: offline, the server does not answer — 1 change waiting · "
        + "“product”: offline, the server refused this machine's login — 3 changes waiting")

    _ = await lines.saying(.online(waiting: 0), of: "platform", among: teams)
    _ = await lines.saying(.online(waiting: 0), of: "design", among: teams)
    #expect(await lines.saying(.online(waiting: 0), of: "product", among: teams) == nil)
  }

  /// The owner removed this machine from a team: the engine left it, so it is no longer among
  /// the machine's teams, and its line still tells the user, beside the others'.
  @Test func aTeamThisMachineWasRemovedFromStillSaysSo() async {
    let lines = StatusLines()
    let removed = TeamSyncStatus.stopped(
      waiting: 0, problem: .removed(role: "alice", team: "platform", unsent: 0))
    #expect(await lines.saying(removed, of: "platform", among: []) == removed.line)
    let both = await lines.saying(
      .offline(waiting: 1, problem: .noAnswer(server: server)), of: "design", among: ["design"])
    #expect(
      both
        == "“design”: offline, the server does not answer — 1 change waiting · "
        + "team: you are no longer in “platform” — its standups stay here as yours")
  }
}
