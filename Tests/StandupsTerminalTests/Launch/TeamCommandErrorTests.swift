import StorageClient
import TeamSync
import Testing

@testable import StandupsTerminal

/// A team command that fails on this machine's database says what happened to the database:
/// `team status` and `sync` make no change of the user's, so "the change could not be saved"
/// would be false.
struct TeamCommandErrorTests {
  let full = StorageError.writeFailed(
    FileProblem(
      path: "/home/blob/standups.sqlite", reason: .diskFull,
      technicalDetail: "SQLite error 13: database or disk is full"))

  @Test func aCommandOnAFullDiskSpeaksOfTheDatabase() {
    let error = TeamCommandError.storage(full)
    #expect(
      error.description
        == "Nothing was changed. This machine's database could not be written: the disk is full "
        + "(/home/blob/standups.sqlite).")
    #expect(error.exitCode == 74)
  }

  @Test func aSyncOnAFullDiskSpeaksOfTheDatabaseAndSaysNothingIsLost() {
    let error = TeamCommandError.sync(.database(full))
    #expect(
      error.description
        == "The sync stopped. This machine's database could not be written: the disk is full "
        + "(/home/blob/standups.sqlite). Nothing is lost: what waits here and on the server goes "
        + "at the next sync.")
    #expect(error.exitCode == 74)
  }

  @Test func aCommandOnADatabaseOnlyReadSaysWhyWithoutSpeakingOfAChange() {
    let readOnly = StorageError.refused(
      .readOnly(.readOnlyFile(path: "/home/blob/standups.sqlite")))
    let error = TeamCommandError.sync(.database(readOnly))
    #expect(
      error.description
        == "The sync stopped. /home/blob/standups.sqlite is marked read-only, so changes are not "
        + "saved to it. Nothing is lost: what waits here and on the server goes at the next sync.")
    #expect(
      TeamSyncStatus.offline(waiting: 1, problem: .database(readOnly)).line
        == "team: waiting for this machine's database (it is only read) — 1 change waiting")
  }
}
