import AppFeature
import Composable
import Foundation
import IdentifiedCollections
import MeetingFeature
import Models
import Persistence
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsList
import StandupsTerminal
import StorageClient
import TerminalUI

/// Dates in UTC, so that snapshots are the same on every machine.
let utc = TerminalFormat(timeZone: TimeZone(identifier: "UTC")!)

let wide = Size(width: 80, height: 24)
let narrow = Size(width: 40, height: 12)
/// The smallest terminal the app draws for: nothing on it may run into anything else.
let tiny = Size(width: 20, height: 6)

/// A UUID made from a number, stable across runs.
func uuid(_ value: Int) -> UUID {
  let digits = String(value, radix: 16, uppercase: true)
  return UUID(
    uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count)
      + digits)!
}

/// 22 Nov 2026 09:30 UTC, plus a number of days.
func day(_ offset: Int, hour: Int = 9, minute: Int = 30) -> Date {
  let seconds: Int = offset * 86_400 + (hour - 9) * 3600 + (minute - 30) * 60
  return Date(timeIntervalSince1970: 1_795_339_800 + Double(seconds))
}

enum Fixtures {
  static let names = [
    "Blob", "Blob Jr", "Blob Sr", "Blob Esq", "Blob III", "Blob I",
  ]

  /// A standup with six attendees, three meetings (one without a transcript) and a long name
  /// among its attendees.
  static let design: Standup = {
    var standup = Standup.mock
    standup.duration = .seconds(6 * 60)
    standup.attendees[id: standup.attendees[2].id]?.name =
      "Bartholomew Blobsworth-Fitzgerald the Third, Esquire"
    standup.meetings = [
      Meeting(
        id: Meeting.ID(uuid(0xD1)), date: day(0),
        transcript: "Blob: shipped the onboarding flow.\nBlob Jr: dark mode next week."),
      Meeting(id: Meeting.ID(uuid(0xD2)), date: day(-1), transcript: ""),
      Meeting(
        id: Meeting.ID(uuid(0xD3)), date: day(-7, hour: 17, minute: 5),
        transcript: "Blob Sr: the release is blocked on review; Blob Esq will pair on it."),
    ]
    return standup
  }()

  /// Twelve standups, one with a title too long for any row and one in Japanese.
  static let twelve: IdentifiedArrayOf<Standup> = {
    let titles = [
      "Design", "Engineering", "Product",
      "The quarterly planning sync for the platform and infrastructure teams",
      "デザイン定例", "Marketing", "Support", "Sales", "Data", "Security", "Mobile", "Web",
    ]
    return IdentifiedArray(
      uniqueElements: titles.enumerated().map { index, title in
        Standup(
          id: Standup.ID(uuid(0x100 + index)),
          attendees: IdentifiedArray(
            uniqueElements: names.prefix(index % 6 + 1).enumerated().map { offset, name in
              Attendee(id: Attendee.ID(uuid(0x1000 + index * 16 + offset)), name: name)
            }),
          duration: .seconds((5 + index * 2) * 60),
          theme: Theme.allCases[index % Theme.allCases.count],
          title: title
        )
      })
  }()

  /// A meeting whose transcript is far longer than a screen.
  static let longMeeting = Meeting(
    id: Meeting.ID(uuid(0xE1)), date: day(0),
    transcript: (1...40).map { line in
      "\(names[line % names.count]): point \(line) of the retrospective, which runs long "
        + "enough to wrap on a narrow terminal."
    }.joined(separator: "\n")
  )

  /// The app with the list loaded and, on the stack, the given screens.
  static func app(
    standups: IdentifiedArrayOf<Standup> = [design, .engineeringMock, .productMock],
    path: [AppFeature.Path.State] = [],
    destination: AppFeature.Destination.State? = nil,
    alert: AlertState<PersistedApp.Action.Alert>? = nil,
    storage: PersistedApp.StorageState = PersistedApp.StorageState(status: .writable)
  ) -> PersistedApp.State {
    PersistedApp.State(
      alert: alert,
      app: AppFeature.State(
        destination: destination,
        list: StandupsList.State(standups: standups),
        path: StackState(path)
      ),
      storage: storage
    )
  }

  static func record(
    secondsElapsed: Int,
    speakerIndex: Int,
    transcript: String = ""
  ) -> AppFeature.Path.State {
    .record(
      RecordMeeting.State(
        secondsElapsed: secondsElapsed, speakerIndex: speakerIndex, standup: design,
        transcript: transcript))
  }

  static let diskFullProblem = FileProblem(
    path: "/home/blob/.local/share/standups/standups.sqlite", reason: .diskFull,
    technicalDetail: "SQLite error 13: database or disk is full")

  static let diskFull = StorageError.writeFailed(diskFullProblem)
}
