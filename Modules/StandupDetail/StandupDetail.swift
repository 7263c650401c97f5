public import CasePaths
public import Composable
import Dependencies
public import Foundation
import IssueReporting
public import Models
import SpeechClient

/// One standup: its length, theme, attendees and past meetings, with ways to edit it, delete
/// it, delete past meetings and start a meeting.
///
/// Every change the screen makes to its standup is reported to the parent with
/// `delegate(.standupUpdated)`; editing, starting a meeting, opening a past one and deleting
/// the standup are requests the parent carries out (deleting closes the screen there).
public struct StandupDetail: Reducer {
  /// The standup and the alert shown over it.
  public struct State: Equatable, Sendable {
    /// A confirmation shown over the screen.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The standup shown.
    public var standup: Standup

    /// Creates the screen's state.
    public init(alert: AlertState<Action.Alert>? = nil, standup: Standup) {
      self.alert = alert
      self.standup = standup
    }
  }

  /// What happens on the screen.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped
    case deleteMeetings(atOffsets: IndexSet)
    case editButtonTapped
    case meetingTapped(id: Meeting.ID)
    case startMeetingButtonTapped

    /// The buttons of the screen's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion
      case confirmMeetingDeletion([Meeting.ID])
      case continueWithoutRecording
    }

    /// What the screen asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Delete this standup.
      case deleteStandup(Standup.ID)
      /// Let the user edit this standup.
      case editStandup(Standup)
      /// Show this past meeting.
      case meetingTapped(Meeting.ID)
      /// Record a meeting of this standup.
      case startMeeting(Standup)
      /// The standup changed; this is its new value.
      case standupUpdated(Standup)
    }
  }

  @Dependency(\.speechClient.authorizationStatus) var speechAuthorizationStatus

  /// Creates the screen's reducer.
  public init() {}

  /// Handles the screen's buttons and alerts, and reports every change to its standup.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        return .send(.delegate(.deleteStandup(state.standup.id)))

      case .alert(.presented(.confirmMeetingDeletion(let ids))):
        state.standup.meetings.removeAll { ids.contains($0.id) }
        return .none

      case .alert(.presented(.continueWithoutRecording)):
        return .send(.delegate(.startMeeting(state.standup)))

      case .alert(.dismiss):
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.alert = .deleteStandup
        return .none

      case .deleteMeetings(let offsets):
        let meetings = state.standup.meetings
        let ids = offsets.filter { meetings.indices.contains($0) }.map { meetings[$0].id }
        guard !ids.isEmpty else { return .none }
        state.alert = .deleteMeetings(ids)
        return .none

      case .editButtonTapped:
        return .send(.delegate(.editStandup(state.standup)))

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
          state.alert = .speechRecognitionDenied
          return .none
        case .restricted:
          state.alert = .speechRecognitionRestricted
          return .none
        }
      }
    }
    .ifLet(\.$alert, action: \.alert)
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

  /// Asks before deleting past meetings: the standup's history cannot be recorded again.
  public static func deleteMeetings(_ ids: [Meeting.ID]) -> Self {
    AlertState {
      TextState(ids.count == 1 ? "Delete this meeting?" : "Delete these \(ids.count) meetings?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmMeetingDeletion(ids)) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState(
        ids.count == 1
          ? "The meeting and its transcript will be removed from the standup's history."
          : "The meetings and their transcripts will be removed from the standup's history.")
    }
  }

  /// Explains that the user turned speech recognition off.
  public static var speechRecognitionDenied: Self {
    meetingWithoutRecording(
      title: "Speech recognition denied",
      message: """
        You previously denied speech recognition, so the meeting will not be transcribed. \
        You can allow it in your system's settings.
        """
    )
  }

  /// Explains that this system cannot recognise speech.
  public static var speechRecognitionRestricted: Self {
    meetingWithoutRecording(
      title: "Speech recognition restricted",
      message:
        "Speech recognition is not available here, so the meeting will not be transcribed."
    )
  }

  /// Offers to hold the meeting without a transcript.
  private static func meetingWithoutRecording(title: String, message: String) -> Self {
    AlertState {
      TextState(title)
    } actions: {
      ButtonState(action: .continueWithoutRecording) {
        TextState("Continue without recording")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState(message)
    }
  }
}
