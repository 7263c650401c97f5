import AppFeature
import Composable
import MeetingFeature
import Models
import Persistence
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsList
import StorageClient
import TerminalUI
import Testing

@testable import StandupsTerminal

/// Each screen draws only inside the region it is given: the cells around it survive.
struct RegionTests {
  static let sizes = [
    Size(width: 80, height: 24), Size(width: 40, height: 12), Size(width: 12, height: 5),
  ]

  @Test(arguments: sizes)
  func listStaysInItsRegion(size: Size) {
    assertBorderSurvives(size) { region, canvas in
      ListScreen.render(
        StandupsList.State(standups: Fixtures.twelve), ScreenViewState(), in: region,
        format: utc, on: &canvas)
    }
  }

  @Test(arguments: sizes)
  func detailStaysInItsRegion(size: Size) {
    assertBorderSurvives(size) { region, canvas in
      DetailScreen.render(
        StandupDetail.State(standup: Fixtures.design), ScreenViewState(), in: region,
        format: utc, on: &canvas)
    }
  }

  @Test(arguments: sizes)
  func recordStaysInItsRegion(size: Size) {
    var view = ScreenViewState()
    view.draft = "デザイン: a long line typed into the transcript that does not fit"
    view.editor = LineEditor(cursor: 30, in: view.draft)
    assertBorderSurvives(size) { region, canvas in
      RecordScreen.render(
        RecordMeeting.State(
          secondsElapsed: 200, speakerIndex: 3, standup: Fixtures.design,
          transcript: Fixtures.longMeeting.transcript),
        view, in: region, format: utc, on: &canvas)
    }
  }

  @Test(arguments: sizes)
  func meetingStaysInItsRegion(size: Size) {
    assertBorderSurvives(size) { region, canvas in
      MeetingFeature.State(meeting: Fixtures.longMeeting, standup: Fixtures.design)
        .render(in: region, on: &canvas)
    }
  }

  @Test(arguments: sizes)
  func formStaysInItsRegion(size: Size) {
    var standup = Fixtures.design
    standup.title = "デザイン定例 with a title far too long for the field it is typed in"
    let form = StandupForm.State(focus: .title, standup: standup)
    assertBorderSurvives(size) { region, canvas in
      FormScreen.render(form, FormViewState(), in: region, on: &canvas)
    }
  }

  @Test(arguments: sizes)
  func alertsStayOverTheScreen(size: Size) {
    let alert = PresentedAlert(
      AlertState<PersistedApp.Action.Alert>.dataFailedToLoad(
        StorageError.unreadable(Fixtures.diskFullProblem))
    ) { .alert($0) }
    assertBorderSurvives(size) { region, canvas in
      AlertOverlay.render(alert, selection: 1, over: region, on: &canvas)
    }
  }

  /// Fills a canvas with `#`, draws into everything but its outermost ring, and checks that the
  /// ring is untouched.
  private func assertBorderSurvives(
    _ size: Size,
    sourceLocation: SourceLocation = #_sourceLocation,
    draw: (Rect, inout Canvas) -> Void
  ) {
    var canvas = Canvas(size: size)
    let marker = Style.plain.underlined()
    canvas.fill(canvas.bounds, style: marker, with: "#")
    let region = canvas.bounds.inset(by: 1)
    canvas.fill(region, style: .plain)
    draw(region, &canvas)
    for row in 0..<size.height {
      for column in 0..<size.width where !region.contains(Point(column: column, row: row)) {
        let cell = canvas[row: row, column: column]
        #expect(
          cell == Cell(text: "#", style: marker),
          "(\(column), \(row)) was overwritten with \(cell.text.debugDescription)",
          sourceLocation: sourceLocation)
      }
    }
  }
}

extension MeetingFeature.State {
  fileprivate func render(in region: Rect, on canvas: inout Canvas) {
    MeetingScreen.render(self, ScreenViewState(), in: region, format: utc, on: &canvas)
  }
}
