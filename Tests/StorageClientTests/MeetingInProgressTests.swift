import Dependencies
import Foundation
import GRDB
import IdentifiedCollections
import Models
import Testing

@testable import StorageClient

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
        standup: .engineeringMock, startedAt: Date(timeIntervalSince1970: 1_799_999_000),
        transcript: "first"))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(
        standup: .engineeringMock, startedAt: Date(timeIntervalSince1970: 1_799_999_000),
        transcript: "first\nsecond"))

    let next = try await folder.database().load()

    let meeting = Meeting(
      id: Meeting.ID(UUID(1)), date: Date(timeIntervalSince1970: 1_800_000_000),
      transcript: "first\nsecond")
    #expect(
      next.recoveredMeetings == [
        RecoveredMeeting(
          standupID: Standup.engineeringMock.id, standupTitle: "Engineering", meeting: meeting)
      ])
    #expect(next.standups[id: Standup.engineeringMock.id]?.meetings.elements == [meeting])
    let again = try await folder.database().load()
    #expect(again.recoveredMeetings.isEmpty, "said once")
    #expect(again.standups[id: Standup.engineeringMock.id]?.meetings.count == 1)
  }

  @Test func aMeetingAnotherRunningInstanceIsRecordingIsLeftAlone() async throws {
    let recording = folder.database()
    _ = try await recording.load()
    try await recording.apply(.added([.engineeringMock]))
    try await recording.saveMeetingInProgress(
      MeetingInProgress(standup: .engineeringMock, startedAt: .distantPast, transcript: "live"))

    let other = try await folder.database().load()

    #expect(other.recoveredMeetings.isEmpty)
    #expect(other.standups[id: Standup.engineeringMock.id]?.meetings.isEmpty == true)
  }

  @Test func aMeetingKeptOrDiscardedLeavesNothingToRecover() async throws {
    let crashed = crashedApp()
    _ = try await crashed.load()
    try await crashed.apply(.added([.engineeringMock, .productMock]))
    let kept = Meeting(
      id: Meeting.ID(UUID(5)), date: Date(timeIntervalSince1970: 1_800_000_000), transcript: "kept")
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(standup: .engineeringMock, startedAt: .distantPast, transcript: "kept"))
    try await crashed.saveMeetingInProgress(
      MeetingInProgress(standup: .productMock, startedAt: .distantPast, transcript: "dropped"))

    try await crashed.apply(.meetingRecorded(kept, standup: .engineeringMock))
    try await crashed.discardMeetingInProgress(Standup.productMock.id)

    let next = try await folder.database().load()
    #expect(next.recoveredMeetings.isEmpty)
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
        standup: .engineeringMock, startedAt: .distantPast, transcript: "still here"))
    try await elsewhere.apply(.deleted(Standup.engineeringMock.id))

    let next = try await folder.database().load()

    #expect(next.standups.map(\.title) == ["Product", "Engineering"])
    #expect(
      next.standups[id: Standup.engineeringMock.id]?.meetings.map(\.transcript) == ["still here"])
  }

  @Test func theOwnerOfThisProcessIsRunningAndAGoneOneIsNot() {
    #expect(ProcessIdentity.isRunning(ProcessIdentity.current))
    #expect(!ProcessIdentity.isRunning("pid:999999999"))
    #expect(!ProcessIdentity.isRunning("linux:not-this-boot:1:1"))
    #expect(!ProcessIdentity.isRunning("garbage"))
  }
}
