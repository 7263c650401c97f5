import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import StorageTestSupport
import Testing

@testable import StorageClient

#if canImport(Glibc)
  import Glibc
#endif

/// A meeting being recorded is written as it goes; when its app stops without ending it, the
/// next launch keeps it as a past meeting, once.
struct MeetingInProgressTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// A database whose meetings in progress belong to a process that has stopped.
  private func crashedApp() -> StandupsDatabase {
    folder.database { $0.owner = "pid:999999999" }
  }

  @Test func aMeetingWhoseAppStoppedIsKeptOnceWithEveryLine() async throws {
    let crashed = crashedApp()
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock]))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(1)), standup: .engineeringMock,
        startedAt: Date(timeIntervalSince1970: 1_799_999_000),
        transcript: "first"))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(1)), standup: .engineeringMock,
        startedAt: Date(timeIntervalSince1970: 1_799_999_000),
        transcript: "first\nsecond"))

    let next = try await folder.database().load()

    let meeting = Meeting(
      id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 1_800_000_000),
      transcript: "first\nsecond")
    #expect(
      next.openingReport?.recoveredMeetings == [
        RecoveredMeeting(
          standupID: Standup.engineeringMock.id, standupTitle: "Engineering", meeting: meeting)
      ])
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.elements == [meeting])
    let again = try await folder.database().load()
    #expect(again.openingReport?.recoveredMeetings.isEmpty == true, "said once")
    #expect(again.standups[id: Standup.engineeringMock.id]?.meetings.count == 1)
  }

  @Test func aMeetingAnotherRunningInstanceIsRecordingIsLeftAlone() async throws {
    let recording = folder.database()
    _ = try await recording.load()
    try await recording.apply(.added([.engineeringMock]))
    try await recording.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(2)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "live"))

    let other = try await folder.database().load()

    #expect(other.openingReport?.recoveredMeetings.isEmpty == true)
    #expect(other.standups[id: Standup.engineeringMock.id]?.meetings.isEmpty == true)
  }

  @Test func aMeetingKeptOrDiscardedLeavesNothingToRecover() async throws {
    let crashed = crashedApp()
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock, .productMock]))
    let kept = Meeting(
      id: Meeting.ID(UUID(5)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "kept")
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(3)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "kept"))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(4)), standup: .productMock, startedAt: .distantPast,
        transcript: "dropped"))

    try await crashed.apply(.meetingRecorded(kept, standup: .engineeringMock))
    try await crashed.discardMeetingInProgress(Standup.productMock.id)

    let next = try await folder.database().load()
    #expect(next.openingReport?.recoveredMeetings.isEmpty == true)
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.elements == [kept])
  }

  @Test func aMeetingInterruptedAfterItsStandupWasDeletedElsewhereBringsTheStandupBack()
    async throws
  {
    let crashed = crashedApp()
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock, .productMock]))
    let elsewhere = folder.database()
    _ = try await elsewhere.load()
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(1)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "still here"))
    try await elsewhere.apply(.deleted(Standup.engineeringMock.id))

    let next = try await folder.database().load()

    #expect(next.standups.map(\.title) == ["Product", "Engineering"])
    #expect(
      next.standups[id: Standup.engineeringMock.id]?.meetings.map(\.transcript) == ["still here"])
  }

  @Test func anExportAfterACrashHoldsTheMeetingAsTheNextLaunchKeepsIt() async throws {
    let crashed = crashedApp()
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock]))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(8)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "said before the crash"))

    let exported = try await folder.database().contents()
    let next = try await folder.database().load()

    #expect(exported.interruptedMeetings == ["Engineering"])
    let meeting = try #require(exported.standups[id: Standup.engineeringMock.id]?.meetings.first)
    #expect(meeting.id == Meeting.ID(UUID(8)))
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.elements == [meeting])
  }

  @Test func anExportNamesAMeetingARunningInstanceIsRecordingAndLeavesItOut() async throws {
    let recording = folder.database()
    _ = try await recording.load()
    try await recording.apply(.added([.engineeringMock]))
    try await recording.saveMeetingInProgress(
      MeetingInProgress(
        id: Meeting.ID(UUID(9)), standup: .engineeringMock, startedAt: .distantPast,
        transcript: "live"))

    let exported = try await folder.database().contents()

    #expect(exported.meetingsBeingRecorded == ["Engineering"])
    #expect(exported.standups[id: Standup.engineeringMock.id]?.meetings.isEmpty == true)
  }

  /// The repro of issue 44's item 13: a process that has exited and is not reaped yet (a zombie)
  /// records nothing, and its meeting is recovered.
  @Test func aProcessThatExitedButIsNotReapedIsNotRunning() throws {
    var pipe: [Int32] = [0, 0]
    #expect(Glibc.pipe(&pipe) == 0)
    // NB: Only the shell gets the pipe's reading end, and only this test its writing end
    // (``spawn``): the shell ends when the test closes it, not when whoever else held it does.
    let pid = try spawn(["/bin/sh", "-c", "read line"]) { actions in
      posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
    }
    close(pipe[0])
    let identity = try #require(ProcessIdentity.identity(of: pid))
    #expect(ProcessIdentity.isRunning(identity))

    close(pipe[1])
    // NB: Waits for the exit without reaping it (WNOWAIT): the shell stays a zombie until the
    // `waitpid` below.
    var info = siginfo_t()
    #expect(waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0)
    #expect(!ProcessIdentity.isRunning(identity))
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }

  @Test func theOwnerOfThisProcessIsRunningAndAGoneOneIsNot() {
    #expect(ProcessIdentity.isRunning(ProcessIdentity.current))
    #expect(!ProcessIdentity.isRunning("pid:999999999"))
    #expect(!ProcessIdentity.isRunning("linux:not-this-boot:1:1"))
    #expect(!ProcessIdentity.isRunning("garbage"))
  }
}
