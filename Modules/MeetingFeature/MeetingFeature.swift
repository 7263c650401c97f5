public import CasePaths
public import Composable
import Dependencies
public import Models

/// A past meeting: who attended and what was said, with a way to delete it.
public struct MeetingFeature: Reducer {
  /// The meeting and the standup it belongs to.
  public struct State: Equatable, Sendable {
    /// The confirmation shown before deleting.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The meeting shown.
    public let meeting: Meeting

    /// The standup the meeting belongs to, for its title and attendees.
    public var standup: Standup

    /// Creates the screen's state.
    public init(alert: AlertState<Action.Alert>? = nil, meeting: Meeting, standup: Standup) {
      self.alert = alert
      self.meeting = meeting
      self.standup = standup
    }
  }

  /// What happens on the screen.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped

    /// The buttons of the confirmation alert.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion
    }

    /// What the screen asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Remove this meeting from its standup.
      case deleteMeeting(Meeting.ID)
    }
  }

  /// Creates the screen's reducer.
  public init() {}

  /// Asks before deleting the meeting, then asks the parent to delete it; the parent closes the
  /// screen with the meeting.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        return .send(.delegate(.deleteMeeting(state.meeting.id)))

      case .alert(.dismiss):
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped:
        state.alert = .deleteMeeting
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == MeetingFeature.Action.Alert {
  /// Asks before deleting a meeting.
  public static var deleteMeeting: Self {
    AlertState {
      TextState("Delete this meeting?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("The meeting and its transcript will be removed from the standup's history.")
    }
  }
}
