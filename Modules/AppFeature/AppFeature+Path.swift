public import CasePaths
public import Composable
public import MeetingFeature
public import Models
public import RecordMeeting
public import StandupDetail
public import StandupForm

extension AppFeature {
  /// The screens that can be pushed onto the stack.
  public struct Path: Reducer {
    /// A pushed screen.
    @CasePathable
    public enum State: Equatable, Sendable {
      case detail(StandupDetail.State)
      case meeting(MeetingFeature.State)
      case record(RecordMeeting.State)
    }

    /// An action of a pushed screen.
    @CasePathable
    public enum Action: Equatable, Sendable {
      case detail(StandupDetail.Action)
      case meeting(MeetingFeature.Action)
      case record(RecordMeeting.Action)
    }

    /// Creates the reducer of the pushed screens.
    public init() {}

    /// Runs the reducer of the screen each element is.
    public var body: some ReducerOf<Self> {
      Scope(state: \.detail, action: \.detail) { StandupDetail() }
      Scope(state: \.meeting, action: \.meeting) { MeetingFeature() }
      Scope(state: \.record, action: \.record) { RecordMeeting() }
    }
  }
}

extension AppFeature {
  /// What the app presents over its screens: the form that adds or edits a standup.
  public struct Destination: Reducer {
    /// The presented form.
    @CasePathable
    public enum State: Equatable, Sendable {
      case add(StandupForm.State)
      case edit(StandupForm.State)
    }

    /// The presented form's actions.
    @CasePathable
    public enum Action: Equatable, Sendable {
      case add(StandupForm.Action)
      case edit(StandupForm.Action)
    }

    /// Creates the reducer of the presented form.
    public init() {}

    /// Runs the form's reducer, as the add or the edit form.
    public var body: some ReducerOf<Self> {
      Scope(state: \.add, action: \.add) { StandupForm() }
      Scope(state: \.edit, action: \.edit) { StandupForm() }
    }
  }
}

extension AppFeature.Path.State {
  /// Whether the screen shows an alert, which the user is answering.
  public var hasAlert: Bool {
    switch self {
    case .detail(let detail): detail.alert != nil
    case .meeting(let meeting): meeting.alert != nil
    case .record(let record): record.alert != nil
    }
  }

  /// The standup the screen shows.
  public var standup: Standup {
    get {
      switch self {
      case .detail(let detail): detail.standup
      case .meeting(let meeting): meeting.standup
      case .record(let record): record.standup
      }
    }
    set {
      switch self {
      case .detail(var detail):
        detail.standup = newValue
        self = .detail(detail)
      case .meeting(var meeting):
        meeting.standup = newValue
        self = .meeting(meeting)
      case .record(var record):
        record.standup = newValue
        self = .record(record)
      }
    }
  }
}
