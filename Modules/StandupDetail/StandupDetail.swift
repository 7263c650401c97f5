public import CasePaths
public import Composable
import Dependencies
public import Foundation
import IssueReporting
public import Models
import SpeechClient
public import StandupForm

/// One standup: its length, theme, attendees and past meetings, with ways to edit it, delete
/// it, delete past meetings and start a meeting.
///
/// Every change the screen makes to its standup is reported to the parent with
/// `delegate(.standupUpdated)`; starting a meeting, opening a past one and deleting the standup
/// are requests the parent carries out.
public struct StandupDetail: Reducer {
  /// The standup and what is presented over it.
  public struct State: Equatable, Sendable {
    /// The edit sheet or an alert.
    @PresentationState public var destination: Destination.State?

    /// The standup shown.
    public var standup: Standup

    /// Creates the screen's state.
    public init(destination: Destination.State? = nil, standup: Standup) {
      self.destination = destination
      self.standup = standup
    }
  }

  /// What happens on the screen.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case cancelEditButtonTapped
    case delegate(Delegate)
    case deleteButtonTapped
    case deleteMeetings(atOffsets: IndexSet)
    case destination(PresentationAction<Destination.Action>)
    case doneEditingButtonTapped
    case editButtonTapped
    case meetingTapped(id: Meeting.ID)
    case startMeetingButtonTapped

    /// The buttons of the screen's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion
      case continueWithoutRecording
    }

    /// What the screen asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Delete this standup.
      case deleteStandup(Standup.ID)
      /// Show this past meeting.
      case meetingTapped(Meeting.ID)
      /// Record a meeting of this standup.
      case startMeeting(Standup)
      /// The standup changed; this is its new value.
      case standupUpdated(Standup)
    }
  }

  /// What the screen presents.
  public struct Destination: Reducer {
    /// The presented sheet or alert.
    @CasePathable
    public enum State: Equatable, Sendable {
      case alert(AlertState<StandupDetail.Action.Alert>)
      case edit(StandupForm.State)
    }

    /// The presented feature's actions.
    @CasePathable
    public enum Action: Equatable, Sendable {
      case alert(StandupDetail.Action.Alert)
      case edit(StandupForm.Action)
    }

    /// Creates the destination reducer.
    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.edit, action: \.edit) { StandupForm() }
    }
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.speechClient.authorizationStatus) var speechAuthorizationStatus

  /// Creates the screen's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelEditButtonTapped:
        state.destination = nil
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.destination = .alert(.deleteStandup)
        return .none

      case .deleteMeetings(let offsets):
        let offsets = offsets.filteredIndexSet { state.standup.meetings.indices.contains($0) }
        state.standup.meetings.remove(atOffsets: offsets)
        return .none

      case .destination(.presented(.alert(.confirmDeletion))):
        return .concatenate(
          .send(.delegate(.deleteStandup(state.standup.id))),
          .run { [dismiss] _ in await dismiss() }
        )

      case .destination(.presented(.alert(.continueWithoutRecording))):
        return .send(.delegate(.startMeeting(state.standup)))

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        guard case .edit(var form) = state.destination else { return .none }
        guard form.isSaveable else {
          form.focus = .title
          state.destination = .edit(form)
          return .none
        }
        state.standup = form.validatedStandup
        state.destination = nil
        return .none

      case .editButtonTapped:
        state.destination = .edit(StandupForm.State(standup: state.standup))
        return .none

      case .meetingTapped(let id):
        guard state.standup.meetings[id: id] != nil else {
          reportIssue("The standup has no meeting \(id) to open.")
          return .none
        }
        return .send(.delegate(.meetingTapped(id)))

      case .startMeetingButtonTapped:
        switch speechAuthorizationStatus() {
        case .notDetermined, .authorized:
          return .send(.delegate(.startMeeting(state.standup)))
        case .denied:
          state.destination = .alert(.speechRecognitionDenied)
          return .none
        case .restricted:
          state.destination = .alert(.speechRecognitionRestricted)
          return .none
        }
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
    .onChange(of: \.standup) { _, standup in
      Reduce { _, _ in .send(.delegate(.standupUpdated(standup))) }
    }
  }
}

extension AlertState where Action == StandupDetail.Action.Alert {
  /// Asks before deleting the standup.
  public static var deleteStandup: Self {
    AlertState {
      TextState("Delete this standup?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("The standup and all of its past meetings will be deleted.")
    }
  }

  /// Explains that the user turned speech recognition off.
  public static var speechRecognitionDenied: Self {
    AlertState {
      TextState("Speech recognition denied")
    } actions: {
      ButtonState(action: .continueWithoutRecording) {
        TextState("Continue without recording")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState(
        """
        You previously denied speech recognition, so the meeting will not be transcribed. \
        You can allow it in your system's settings.
        """
      )
    }
  }

  /// Explains that this system cannot recognise speech.
  public static var speechRecognitionRestricted: Self {
    AlertState {
      TextState("Speech recognition restricted")
    } actions: {
      ButtonState(action: .continueWithoutRecording) {
        TextState("Continue without recording")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState(
        "Speech recognition is not available here, so the meeting will not be transcribed."
      )
    }
  }
}
