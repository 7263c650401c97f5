import AppFeature
import Composable
import Foundation
import IdentifiedCollections
import MeetingFeature
import Models
import RecordMeeting
import StandupDetail
import StandupsTerminal
import StorageClient
import Testing

struct SessionTests {
  @Test func remembersDetailAndMeetingScreensButNeverARecorder() {
    let meeting = Fixtures.design.meetings[0]
    let path = StackState<AppFeature.Path.State>([
      .detail(StandupDetail.State(standup: Fixtures.design)),
      .meeting(MeetingFeature.State(meeting: meeting, standup: Fixtures.design)),
    ])
    let session = Session(path: path)
    #expect(
      session.screens == [
        .detail(standup: Fixtures.design.id),
        .meeting(standup: Fixtures.design.id, meeting: meeting.id),
      ])
    #expect(session.path(in: [Fixtures.design]) == Array(path))

    let recording = StackState<AppFeature.Path.State>([
      .detail(StandupDetail.State(standup: Fixtures.design)),
      .record(RecordMeeting.State(standup: Fixtures.design)),
    ])
    #expect(Session(path: recording).screens == [.detail(standup: Fixtures.design.id)])
  }

  @Test func restoresOnlyAsMuchAsStillExists() {
    var standup = Fixtures.design
    let session = Session(
      path: StackState([
        .detail(StandupDetail.State(standup: standup)),
        .meeting(MeetingFeature.State(meeting: standup.meetings[1], standup: standup)),
      ]))
    standup.meetings.remove(at: 1)
    #expect(session.path(in: [standup]) == [.detail(StandupDetail.State(standup: standup))])
    #expect(session.path(in: [.engineeringMock]).isEmpty)
  }

  @Test func aFileRoundTripsAndABadOneSaysWhy() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("session-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("standups/session.json")
    #expect(try Session.read(from: url) == nil)

    let session = Session(path: StackState([.detail(StandupDetail.State(standup: .mock))]))
    try session.write(to: url)
    #expect(try Session.read(from: url) == session)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: url.deletingLastPathComponent().path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)

    try Data("[1, 2".utf8).write(to: url)
    #expect(throws: SessionError(path: url.path, reason: "it is not a session file")) {
      try Session.read(from: url)
    }
  }

  @Test func launchScreensOpenTheNamedStandupOrNameTheOnesThereAre() throws {
    let options = LaunchOptions(
      dataFile: URL(fileURLWithPath: "/x"), sessionFile: nil, open: "design")
    let stored = StoredStandups(standups: [Fixtures.design, .engineeringMock])
    let screens = try LaunchScreens(options: options, stored: .success(stored))
    #expect(screens.path == [.detail(StandupDetail.State(standup: Fixtures.design))])

    var byID = options
    byID.open = Standup.engineeringMock.id.rawValue.uuidString.lowercased()
    #expect(
      try LaunchScreens(options: byID, stored: .success(stored)).path
        == [.detail(StandupDetail.State(standup: .engineeringMock))])

    var unknown = options
    unknown.open = "Marketing"
    #expect(throws: LaunchError.unknownStandup("Marketing", available: ["Design", "Engineering"])) {
      try LaunchScreens(options: unknown, stored: .success(stored))
    }
  }
}
