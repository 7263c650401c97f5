import CasePaths
import Composable
import IssueReporting
import MeetingFeature
import Models
import RecordMeeting
import StandupDetail
import StandupForm
import StandupsList

// The integration between screens: each function answers one delegate action. Screens are
// found by the standup they show, never by their position on the stack, so deep links and
// repeated screens behave the same as a stack built by tapping.
//
// Every change to the standups is a `StandupsChange` that goes through `apply`, which puts it
// on the list and on every screen showing that standup, and announces it with
// `delegate(.standupsChanged)`. One policy closes screens: when a screen's delegate asks for
// something that removes it (delete this standup, delete this meeting, keep this recording), the
// glue closes it here; a screen dismisses itself only for reasons of its own (a cancel button).

extension AppFeature {
  /// The list asked for something.
  func handle(_ delegate: StandupsList.Action.Delegate, _ state: inout State) -> Effect<Action> {
    switch delegate {
    case .addStandup:
      state.destination = .add(StandupForm.State(standup: Standup(id: Standup.ID(uuid()))))
      return .none
    case .deleteStandup(let id):
      return apply(.deleted(id), &state)
    case .loadSampleData:
      let samples = [Standup.mock, .engineeringMock, .productMock].filter {
        state.list.standups[id: $0.id] == nil
      }
      guard !samples.isEmpty else { return .none }
      return apply(.added(samples), &state)
    case .standupTapped(let id):
      return openDetail(of: id, &state)
    }
  }

  /// The list asked to open a standup: push its detail.
  func openDetail(of id: Standup.ID, _ state: inout State) -> Effect<Action> {
    guard let standup = state.list.standups[id: id] else {
      reportIssue("The list asked to open standup \(id), which it does not have.")
      return .none
    }
    state.path.append(.detail(StandupDetail.State(standup: standup)))
    return .none
  }

  /// The add form was confirmed: add its standup to the list.
  func addStandup(_ state: inout State) -> Effect<Action> {
    guard let form = confirmedForm(in: \.add, &state) else { return .none }
    return apply(.added([form.validatedStandup]), &state)
  }

  /// The edit form was confirmed: apply what the user changed in it — only that — to the
  /// standup as it is now, which a meeting recorded under the sheet, or another instance of the
  /// app, may have changed since the form opened.
  func finishEditing(_ state: inout State) -> Effect<Action> {
    guard let form = confirmedForm(in: \.edit, &state) else { return .none }
    let edit = form.edit
    guard !edit.isEmpty else { return .none }
    return apply(.edited(form.original.id, edit), &state)
  }

  /// Closes the form presented in `formCase` and returns it; a form without a title stays open
  /// with the focus on the title, and gives `nil`.
  private func confirmedForm(
    in formCase: CaseKeyPath<Destination.State, StandupForm.State>,
    _ state: inout State
  ) -> StandupForm.State? {
    guard var form = state.destination?[case: formCase] else { return nil }
    guard form.isSaveable else {
      form.focus = .title
      state.destination = formCase(form)
      return nil
    }
    state.destination = nil
    return form
  }

  /// A detail screen asked for something.
  func handle(
    _ delegate: StandupDetail.Action.Delegate,
    fromDetail id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    switch delegate {
    case .deleteStandup(let standupID):
      return apply(.deleted(standupID), &state)
    case .editStandup(let standup):
      state.destination = .edit(StandupForm.State(standup: standup))
      return .none
    case .meetingTapped(let meetingID):
      openMeeting(meetingID, shownBy: id, &state)
      return .none
    case .startMeeting(let standup):
      state.path.append(.record(RecordMeeting.State(standup: standup)))
      return .none
    case .standupUpdated(let standup):
      guard let current = state.list.standups[id: standup.id] else {
        reportIssue("Screen \(id) changed standup \(standup.id), which the list does not have.")
        return .none
      }
      return apply(.edited(standup.id, StandupEdit(from: current, to: standup)), &state)
    }
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

  /// A meeting screen confirmed deleting its meeting: remove it from its standup, which closes
  /// every screen showing it.
  func deleteMeeting(
    _ meetingID: Meeting.ID,
    shownBy id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    guard let standup = state.path[id: id]?.standup else {
      reportIssue("Meeting \(meetingID) was deleted from a screen that is gone.")
      return .none
    }
    return apply(.edited(standup.id, StandupEdit(meetingsRemoved: [meetingID])), &state)
  }

  /// A recording ended with a transcript: pop the recorder, and add the meeting to its standup
  /// (UUID and date from dependencies), wherever that standup is shown.
  func saveMeeting(
    transcript: String,
    recordedBy id: StackElementID,
    _ state: inout State
  ) -> Effect<Action> {
    guard let shown = state.path[id: id]?.standup else {
      reportIssue("A recording on screen \(id) was saved after the screen was gone.")
      return .none
    }
    state.path.pop(from: id)
    let meeting = Meeting(id: Meeting.ID(uuid()), date: now, transcript: transcript)
    return apply(
      .meetingRecorded(meeting, standup: state.list.standups[id: shown.id] ?? shown), &state)
  }

  /// Applies a change to the list and to every screen, and announces it; a deletion that
  /// ``State/deletions`` refuses changes nothing, and the screens that already showed it (a
  /// detail that removed a meeting from its copy) show the list's copy again.
  func apply(_ change: StandupsChange, _ state: inout State) -> Effect<Action> {
    if change.isDeletion, state.deletions == .refused {
      for id in change.standupIDs {
        state.showOnScreens(id)
      }
      return .send(.delegate(.deletionRefused(change)))
    }
    state.apply(change)
    return .send(.delegate(.standupsChanged(change)))
  }
}
