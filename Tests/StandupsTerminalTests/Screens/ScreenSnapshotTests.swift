import AppFeature
import Composable
import Dependencies
import Foundation
import IdentifiedCollections
import MeetingFeature
import Models
import Persistence
import RecordMeeting
import SnapshotTesting
import StandupDetail
import StandupForm
import StandupsList
import StorageClient
import TerminalUI
import Testing

@testable import StandupsTerminal

/// Every screen, sheet and alert of the app at 80×24, at 40×12 and at 20×6. Snapshots are in
/// `__Snapshots__/ScreenSnapshotTests`; a missing one is recorded and fails the test, so a new
/// snapshot is looked at before it is committed.
@MainActor
@Suite(.snapshots(record: .missing))
struct ScreenSnapshotTests {
  // MARK: - List

  @Test func listEmpty() {
    assertFrames(Fixtures.app(standups: []))
  }

  @Test func listOne() {
    assertFrames(Fixtures.app(standups: [Fixtures.design]))
  }

  @Test func listTwelveAtTheTop() {
    assertFrames(Fixtures.app(standups: Fixtures.twelve))
  }

  @Test func listTwelveScrolledToTheLast() {
    assertFrames(Fixtures.app(standups: Fixtures.twelve)) { view, _ in
      view.list.selection = 11
    }
  }

  @Test func listDeleteConfirmation() {
    var state = Fixtures.app()
    state.app.list.alert = .deleteStandup(Fixtures.design)
    assertFrames(state)
  }

  @Test func listKeys() {
    assertFrames(Fixtures.app()) { view, _ in
      view.isShowingHelp = true
    }
  }

  // MARK: - Detail

  @Test func detailWithMeetings() {
    assertFrames(Fixtures.app(path: [.detail(StandupDetail.State(standup: Fixtures.design))]))
  }

  @Test func detailWithTheSecondMeetingSelected() {
    assertFrames(Fixtures.app(path: [.detail(StandupDetail.State(standup: Fixtures.design))])) {
      view, state in
      view[screen: state.app.path.ids[0]].selection = 1
    }
  }

  @Test func detailWithoutMeetings() {
    assertFrames(Fixtures.app(path: [.detail(StandupDetail.State(standup: .engineeringMock))]))
  }

  @Test func detailAlerts() {
    for (name, alert) in [
      ("delete", AlertState<StandupDetail.Action.Alert>.deleteStandup),
      ("speechDenied", .speechRecognitionDenied),
      ("speechRestricted", .speechRecognitionRestricted),
    ] {
      let detail = StandupDetail.State(alert: alert, standup: Fixtures.design)
      assertFrames(Fixtures.app(path: [.detail(detail)]), named: name)
    }
  }

  @Test func detailWithASaveFailure() {
    var storage = PersistedApp.StorageState(status: .writable)
    storage.lastWriteError = Fixtures.diskFull
    assertFrames(
      Fixtures.app(
        path: [.detail(StandupDetail.State(standup: Fixtures.design))], storage: storage))
  }

  // MARK: - Record

  @Test func recordAtTheStart() {
    assertFrames(
      Fixtures.app(
        path: [
          .detail(StandupDetail.State(standup: Fixtures.design)),
          Fixtures.record(secondsElapsed: 0, speakerIndex: 0),
        ]))
  }

  @Test func recordMidMeeting() {
    let transcript = "Blob: shipped the onboarding flow.\nBlob Jr: dark mode prototype is next."
    assertFrames(
      Fixtures.app(
        path: [
          .detail(StandupDetail.State(standup: Fixtures.design)),
          Fixtures.record(secondsElapsed: 150, speakerIndex: 2, transcript: transcript),
        ])
    ) { view, state in
      view[screen: state.app.path.ids[1]].draft = "Bartholomew: reviewing the release"
      view[screen: state.app.path.ids[1]].editor = LineEditor()
    }
  }

  @Test func recordLastSpeaker() {
    assertFrames(
      Fixtures.app(
        path: [
          .detail(StandupDetail.State(standup: Fixtures.design)),
          Fixtures.record(secondsElapsed: 330, speakerIndex: 5, transcript: "Blob I: nothing new."),
        ]))
  }

  @Test func recordAlerts() {
    for (name, alert) in [
      ("endEarly", AlertState<RecordMeeting.Action.Alert>.endMeeting(isDiscardable: true)),
      ("endAtLastSpeaker", .endMeeting(isDiscardable: false)),
      ("speechFailed", .speechRecognizerFailed),
    ] {
      var record = RecordMeeting.State(
        secondsElapsed: 90, speakerIndex: 1, standup: Fixtures.design)
      record.alert = alert
      assertFrames(
        Fixtures.app(
          path: [.detail(StandupDetail.State(standup: Fixtures.design)), .record(record)]),
        named: name)
    }
  }

  // MARK: - Meeting

  @Test func meetingWithALongTranscript() {
    assertFrames(Self.longMeetingOpen)
  }

  @Test func meetingScrolledToTheEnd() {
    assertFrames(Self.longMeetingOpen) { view, state in
      view[screen: state.app.path.ids[1]].scroll = .max
    }
  }

  /// The design standup's detail, with its long meeting open on top.
  private static var longMeetingOpen: PersistedApp.State {
    var standup = Fixtures.design
    standup.meetings.insert(Fixtures.longMeeting, at: 0)
    return Fixtures.app(
      path: [
        .detail(StandupDetail.State(standup: standup)),
        .meeting(MeetingFeature.State(meeting: Fixtures.longMeeting, standup: standup)),
      ])
  }

  @Test func meetingDeleteConfirmation() {
    let meeting = Fixtures.design.meetings[0]
    assertFrames(
      Fixtures.app(
        path: [
          .detail(StandupDetail.State(standup: Fixtures.design)),
          .meeting(
            MeetingFeature.State(alert: .deleteMeeting, meeting: meeting, standup: Fixtures.design)),
        ]))
  }

  // MARK: - Form

  @Test func formAddingWithTheTitleFocused() {
    let form = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      StandupForm.State(standup: Standup(id: Standup.ID(uuid(0xF0))))
    }
    assertFrames(Fixtures.app(destination: .add(form)))
  }

  @Test func formEditingWithAnAttendeeFocused() {
    let attendee = Fixtures.design.attendees[2].id
    assertFrames(
      Fixtures.app(
        path: [.detail(StandupDetail.State(standup: Fixtures.design))],
        destination: .edit(StandupForm.State(focus: .attendee(attendee), standup: Fixtures.design))
      ))
  }

  @Test func formEditingTheTheme() {
    assertFrames(
      Fixtures.app(
        path: [.detail(StandupDetail.State(standup: Fixtures.design))],
        destination: .edit(StandupForm.State(focus: nil, standup: Fixtures.design)))
    ) { view, _ in
      view.form.row = .theme
    }
  }

  /// The length's arrows show only the ways it can move.
  @Test(arguments: [("shortest", 5), ("middle", 15), ("longest", 30)])
  func formEditingTheLength(name: String, minutes: Int) {
    var standup = Fixtures.design
    standup.duration = .seconds(minutes * 60)
    assertFrames(
      Fixtures.app(
        path: [.detail(StandupDetail.State(standup: standup))],
        destination: .edit(StandupForm.State(focus: nil, standup: standup))),
      named: name
    ) { view, _ in
      view.form.row = .length
    }
  }

  @Test func formEditingTheLastOfManyAttendees() {
    var standup = Fixtures.design
    for index in 0..<10 {
      standup.attendees.append(
        Attendee(id: Attendee.ID(uuid(0x2000 + index)), name: "Guest \(index + 1)"))
    }
    assertFrames(
      Fixtures.app(
        path: [.detail(StandupDetail.State(standup: standup))],
        destination: .edit(
          StandupForm.State(focus: .attendee(standup.attendees.last!.id), standup: standup))
      ))
  }

  // MARK: - The app's alerts

  @Test func appAlerts() {
    let unreadable = StorageError.notADatabase(
      FileProblem(
        path: "/home/blob/.local/share/standups/standups.sqlite", reason: .notADatabase,
        technicalDetail: "SQLite error 26: file is not a database"),
      isMovableAside: true)
    let folder = StorageError.notADataFile(
      FileProblem(
        path: "/home/blob/.local/share/standups/standups.sqlite", reason: .isDirectory,
        technicalDetail: "lstat: a directory"))
    for (name, alert) in [
      ("dataFailedToLoad", AlertState<PersistedApp.Action.Alert>.dataFailedToLoad(unreadable)),
      ("cannotSave", .cannotSave(folder)),
      ("backupFailed", .backupFailed(.backupFailed(Fixtures.diskFullProblem))),
      ("saveFailed", .saveFailed(Fixtures.diskFull)),
      (
        "readOnly",
        .readOnly(.newerRelease(path: "/home/blob/.local/share/standups/standups.sqlite"))
      ),
    ] {
      assertFrames(Fixtures.app(alert: alert), named: name)
    }
  }

  @Test func aNoticeNamingAFileWrapsAndStaysOverAnAlert() {
    var state = Fixtures.app()
    state.storage.notice =
      "Not saved last time: /home/blob/.local/state/standups/unsaved-standups-20261122T093000Z.json."
    state.alert = .saveFailed(Fixtures.diskFull)
    assertFrames(state)
  }

  /// The first launch could not bring in an earlier release's data file: the notice wraps over
  /// the rows it needs, so that the file it names, and the command that brings it in once
  /// mended, show whole at 40 columns too.
  @Test func aFirstLaunchNoticeShowsWholeTheFileItCouldNotBringIn() {
    let report = OpeningReport(
      earlierRelease: .failed(
        path: "/home/blob/.local/share/standups/standups.json",
        reason: "it is a folder, not a file"))
    var state = Fixtures.app(standups: [])
    state.storage.notice = report.notices.joined(separator: " ")
    assertFrames(state)
  }

  @Test func readOnlyData() {
    assertFrames(
      Fixtures.app(
        storage: PersistedApp.StorageState(
          status: .readOnly(.readOnlyFile(path: "/home/blob/.local/share/standups/standups.sqlite"))
        )))
  }

  // MARK: - Helpers

  /// Renders `state` at the three sizes and compares each frame with its snapshot.
  private func assertFrames(
    _ state: PersistedApp.State,
    named name: String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: String = #function,
    line: UInt = #line,
    column: UInt = #column,
    view configure: (inout AppViewState, PersistedApp.State) -> Void = { _, _ in }
  ) {
    var view = AppViewState()
    view.update(from: state)
    configure(&view, state)
    for size in [wide, narrow, tiny] {
      let frame = AppView.render(state, view, size: size, format: utc)
      let sizeName = "\(size.width)x\(size.height)"
      assertSnapshot(
        of: frame, as: .frame, named: name.map { "\($0)-\(sizeName)" } ?? sizeName,
        fileID: fileID, file: filePath, testName: function, line: line, column: column)
    }
  }
}
