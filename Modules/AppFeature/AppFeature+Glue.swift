import CasePaths
import Composable
import IssueReporting
import MeetingFeature
import Models
import RecordMeeting
import StandupDetail
import StandupForm

// The integration between screens: each function answers one delegate action. Screens are
// found by the standup they show, never by their position on the stack, so deep links and
// repeated screens behave the same as a stack built by tapping.

extension AppFeature {
  /// The list asked to open a standup: push its detail.
  func openDetail(of id: Standup.ID, _ state: inout State) -> Effect<Action> {
    guard let standup = state.list.standups[id: id] else {
      reportIssue("The list asked to open standup \(id), which it does not have.")
      return .none
    }
    state.path.append(.detail(StandupDetail.State(standup: standup)))
    return .none
  }

  /// The list asked to add a standup: present the form with a new, empty one.
  func presentAddForm(_ state: inout State) -> Effect<Action> {
    state.destination = .add(StandupForm.State(standup: Standup(id: Standup.ID(uuid()))))
    return .none
  }

  /// The add form was confirmed: add its standup to the list.
  func addStandup(_ state: inout State) -> Effect<Action> {
    guard let standup = confirmedStandup(in: \.add, &state) else { return .none }
    state.list.standups.append(standup)
    return .none
  }

  /// The edit form was confirmed: write its standup to every place that shows it.
  func finishEditing(_ state: inout State) -> Effect<Action> {
    guard let standup = confirmedStandup(in: \.edit, &state) else { return .none }
    update(standup, exceptIn: nil, &state)
    return .none
  }

  /// Closes the form presented in `formCase` and returns its standup as the form validates it;
  /// a form without a title stays open with the focus on the title, and gives `nil`.
  private func confirmedStandup(
    in formCase: CaseKeyPath<Destination.State, StandupForm.State>,
    _ state: inout State
  ) -> Standup? {
    guard var form = state.destination?[case: formCase] else { return nil }
    guard form.isSaveable else {
      form.focus = .title
      state.destination = formCase(form)
      return nil
    }
    state.destination = nil
    return form.validatedStandup
  }

  /// A detail screen asked for something.
  func handle(
    _ delegate: StandupDetail.Action.Delegate,
    fromDetail id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    switch delegate {
    case .deleteStandup(let standupID):
      deleteStandup(standupID, &state)
    case .editStandup(let standup):
      state.destination = .edit(StandupForm.State(standup: standup))
    case .meetingTapped(let meetingID):
      openMeeting(meetingID, shownBy: id, &state)
    case .startMeeting(let standup):
      state.path.append(.record(RecordMeeting.State(standup: standup)))
    case .standupUpdated(let standup):
      update(standup, exceptIn: id, &state)
    }
    return .none
  }

  /// A standup changed: write it to the list and to every screen that shows it, except the one
  /// the change came from.
  func update(_ standup: Standup, exceptIn sourceID: StackElementID?, _ state: inout State) {
    let isListed = state.list.standups[id: standup.id] != nil
    if isListed {
      state.list.standups[id: standup.id] = standup
    }
    var isShown = false
    for id in state.path.ids where state.path[id: id]?.standup.id == standup.id {
      isShown = true
      if id != sourceID {
        state.path[id: id]?.standup = standup
      }
    }
    if !isListed, !isShown {
      reportIssue("Standup \(standup.id) changed, but neither the list nor any screen has it.")
    }
  }

  /// The current version of the standup shown on screen `screenID`: the list's, or, while the
  /// list does not have it (a deep link opened before loading finished), a detail screen's, or
  /// the asking screen's own. `nil` when the screen is gone.
  func currentStandup(shownBy screenID: StackElementID, _ state: State) -> Standup? {
    guard let id = state.path[id: screenID]?.standup.id else { return nil }
    if let standup = state.list.standups[id: id] { return standup }
    let detail = state.path.lazy.compactMap { $0[case: \.detail]?.standup }.first { $0.id == id }
    return detail ?? state.path[id: screenID]?.standup
  }

  /// A detail screen confirmed deleting its standup: remove it from the list, and remove every
  /// screen that shows it.
  func deleteStandup(_ id: Standup.ID, _ state: inout State) {
    state.list.standups.remove(id: id)
    state.path.removeAll { $0.standup.id == id }
  }

  /// A detail screen asked to show one of its standup's past meetings.
  func openMeeting(_ meetingID: Meeting.ID, shownBy id: StackElementID, _ state: inout State) {
    guard
      let standup = state.path[id: id]?.standup,
      let meeting = standup.meetings[id: meetingID]
    else {
      reportIssue("Screen \(id) asked to open meeting \(meetingID), which its standup lacks.")
      return
    }
    state.path.append(.meeting(MeetingFeature.State(meeting: meeting, standup: standup)))
  }

  /// A meeting screen confirmed deleting its meeting: remove it from its standup everywhere.
  func deleteMeeting(
    _ meetingID: Meeting.ID,
    shownBy id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    guard var standup = currentStandup(shownBy: id, state) else {
      reportIssue("Meeting \(meetingID) was deleted from a screen that is gone.")
      return .none
    }
    standup.meetings.remove(id: meetingID)
    update(standup, exceptIn: nil, &state)
    return .none
  }

  /// A recording ended with a transcript: add the meeting, newest first, to its standup in the
  /// list and in every detail screen that shows it, and pop the recorder.
  func saveMeeting(
    transcript: String,
    recordedBy id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    guard var standup = currentStandup(shownBy: id, state) else {
      reportIssue("A recording on screen \(id) was saved after the screen was gone.")
      return .none
    }
    state.path.pop(from: id)
    let meeting = Meeting(id: Meeting.ID(uuid()), date: now, transcript: transcript)
    standup.meetings.insert(meeting, at: 0)
    update(standup, exceptIn: nil, &state)
    return .none
  }
}
