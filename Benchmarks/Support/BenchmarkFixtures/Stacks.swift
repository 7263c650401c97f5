public import Composable
import Dependencies
import Foundation
import IdentifiedCollections
import Models

// Realistic feature state: a detail screen holds a standup with ten attendees and twenty
// meetings with transcripts of about 500 characters, every string built on its own so that no
// two elements share storage.

/// A detail screen's state built from scratch for `seed`.
public func makeDetail(seed: Int) -> DetailFeature.State {
  let attendees = (0..<10).map { index in
    Attendee(id: Attendee.ID(UUID(seed * 100 + index)), name: "Attendee \(index) of \(seed)")
  }
  let meetings = (0..<20).map { index in
    Meeting(
      id: Meeting.ID(UUID(seed * 100 + 50 + index)),
      date: Date(timeIntervalSince1970: Double(seed * 100 + index)),
      transcript: transcript(seed: seed, meeting: index)
    )
  }
  return DetailFeature.State(
    standup: Standup(
      id: Standup.ID(UUID(seed)),
      attendees: IdentifiedArray(uniqueElements: attendees),
      duration: .seconds(600),
      meetings: IdentifiedArray(uniqueElements: meetings),
      theme: Theme.allCases[seed % Theme.allCases.count],
      title: "Standup \(seed)"
    )
  )
}

private func transcript(seed: Int, meeting: Int) -> String {
  var text = "Meeting \(meeting) of standup \(seed). "
  let sentences = [
    "Yesterday I finished the timer screen and reviewed the form. ",
    "Today I will pair on persistence and look at the failing test. ",
    "No blockers, but the design review moved to Thursday. ",
  ]
  var index = seed + meeting
  while text.utf8.count < 500 {
    text += sentences[index % sentences.count]
    index += 1
  }
  return text
}

/// A stack of `count` elements, mostly detail screens with a timer screen every tenth (never on
/// top), with IDs counted from `firstID` so that two stacks built alike have the same IDs.
public func makeStack(count: Int, firstID: Int = 0) -> StackState<Path.State> {
  withDependencies {
    $0.stackElementID = .incrementing(from: firstID)
  } operation: {
    StackState(
      (0..<count).map { index in
        index % 10 == 5 ? .timer(TimerFeature.State()) : .detail(makeDetail(seed: index))
      }
    )
  }
}
