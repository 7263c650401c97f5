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
// repeated screens behave the same as a stack built by tapping. Every change to the standups
// goes through `update`, `addStandup` or `deleteStandup`, which keep the list and every screen
// in step, and tell the persistence policy what changed while the standups were loading.

extension AppFeature {
  /// The list asked for something.
  func handle(_ delegate: StandupsList.Action.Delegate, _ state: inout State) -> Effect<Action> {
    switch delegate {
    case .addStandup:
      return presentAddForm(&state)
    case .deleteStandup(let id):
      deleteStandup(id, &state)
    case .loadSampleData:
      loadSampleData(&state)
    case .standupTapped(let id):
      return openDetail(of: id, &state)
    }
    return .none
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

  /// The list asked to add a standup: present the form with a new, empty one.
  func presentAddForm(_ state: inout State) -> Effect<Action> {
    guard state.acceptsChanges() else { return .none }
    state.destination = .add(StandupForm.State(standup: Standup(id: Standup.ID(uuid()))))
    return .none
  }

  /// The add form was confirmed: add its standup to the list.
  func addStandup(_ state: inout State) -> Effect<Action> {
    guard let standup = confirmedStandup(in: \.add, &state) else { return .none }
    guard state.acceptsChanges() else { return .none }
    state.list.standups.append(standup)
    state.recordChangeBeforeLoad { $0.record(standup) }
    return .none
  }

  /// The edit form was confirmed: write the fields it edits — title, length, theme, attendees
  /// — into the standup as it is now (a meeting may have been recorded under the sheet), and
  /// that into every place that shows it.
  func finishEditing(_ state: inout State) -> Effect<Action> {
    guard let edited = confirmedStandup(in: \.edit, &state) else { return .none }
    guard state.acceptsChanges() else { return .none }
    guard var standup = currentStandup(edited.id, state) else {
      reportIssue("Standup \(edited.id) was edited, but neither the list nor any screen has it.")
      return .none
    }
    standup.title = edited.title
    standup.duration = edited.duration
    standup.theme = edited.theme
    standup.attendees = edited.attendees
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

  /// The list offered sample data and the user took it.
  func loadSampleData(_ state: inout State) {
    switch state.persistence.status {
    case .notSaving(let error):
      state.notify(.loadFailed(error))
    case .readOnly:
      state.notify(.changesRefused)
    case .notLoaded, .loading, .loaded:
      for standup in state.addSampleData() {
        state.recordChangeBeforeLoad { $0.record(standup) }
      }
    }
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
      guard state.acceptsChanges() else { break }
      state.destination = .edit(StandupForm.State(standup: standup))
    case .meetingTapped(let meetingID):
      openMeeting(meetingID, shownBy: id, &state)
    case .startMeeting(let standup):
      guard state.acceptsChanges() else { break }
      state.path.append(.record(RecordMeeting.State(standup: standup)))
    case .standupUpdated(let standup):
      guard state.acceptsChanges() else {
        // NB: The screen changed its own copy; put back the one everybody else shows.
        if let current = currentStandup(standup.id, state, excluding: id) {
          state.path[id: id]?.standup = current
        }
        break
      }
      update(standup, exceptIn: id, &state)
    }
    return .none
  }

  /// A standup changed: write it to the list and to every screen that shows it, except the one
  /// the change came from.
  func update(_ standup: Standup, exceptIn sourceID: StackElementID?, _ state: inout State) {
    let previous = currentStandup(standup.id, state, excluding: sourceID)
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
    state.recordChangeBeforeLoad { $0.record(standup, previously: previous) }
  }

  /// The current version of a standup: the list's, or, while the list does not have it (a deep
  /// link opened before loading finished), the first screen's that shows it, other than
  /// `excluded`.
  func currentStandup(
    _ id: Standup.ID,
    _ state: State,
    excluding excluded: StackElementID? = nil
  ) -> Standup? {
    if let standup = state.list.standups[id: id] { return standup }
    return state.path.ids.lazy
      .filter { $0 != excluded }
      .compactMap { state.path[id: $0]?.standup }
      .first { $0.id == id }
  }

  /// The user confirmed deleting a standup, on the list or on its detail screen: remove it
  /// from the list, and every screen that shows it, which ends their effects.
  func deleteStandup(_ id: Standup.ID, _ state: inout State) {
    guard state.acceptsChanges() else { return }
    state.list.standups.remove(id: id)
    state.path.removeAll { $0.standup.id == id }
    state.recordChangeBeforeLoad { $0.recordDeletion(of: id) }
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
    guard state.acceptsChanges() else { return .none }
    guard
      let shown = state.path[id: id]?.standup,
      var standup = currentStandup(shown.id, state)
    else {
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
    guard
      let shown = state.path[id: id]?.standup,
      var standup = currentStandup(shown.id, state)
    else {
      reportIssue("A recording on screen \(id) was saved after the screen was gone.")
      return .none
    }
    guard state.acceptsChanges() else {
      state.path.pop(from: id)
      return .none
    }
    state.path.pop(from: id)
    let meeting = Meeting(id: Meeting.ID(uuid()), date: now, transcript: transcript)
    standup.meetings.insert(meeting, at: 0)
    update(standup, exceptIn: nil, &state)
    return .none
  }
}
