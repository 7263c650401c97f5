public import CasePaths
public import Composable
import Dependencies
public import MeetingFeature
public import Models
public import RecordMeeting
public import StandupDetail
public import StandupForm
public import StandupsList

/// The root of the app's navigation: the list of standups with a stack of screens on top of it,
/// and the sheet that adds or edits a standup.
///
/// This is the only feature that knows every other one. Screens speak through delegate actions;
/// the glue here turns them into pushes, pops, sheets and changes to the standups (see
/// `AppFeature+Glue.swift`). Each change to the standups is applied to the list and to every
/// screen that shows them, and announced to whoever runs the app with
/// `delegate(.standupsChanged(_:))`, in terms a store can write row by row. Keeping the standups
/// is not this feature's business: the app's persistence wraps it from outside.
public struct AppFeature: Reducer {
  /// The list, the stack above it, and the sheet over both.
  public struct State: Equatable, Sendable {
    /// The add or edit form, presented over whichever screen asked for it.
    @PresentationState public var destination: Destination.State?

    /// The root screen.
    public var list: StandupsList.State

    /// The screens pushed on top of the list, bottom first.
    public var path: StackState<Path.State>

    /// Whether a change may delete anything: a standup, a past meeting. Whoever keeps the
    /// standups decides, and the glue asks before it applies each change
    /// (`delegate(.deletionRefused)`).
    public var deletions: Deletions

    /// Creates the app's state; any path can be given, to start deep in the app.
    public init(
      destination: Destination.State? = nil,
      list: StandupsList.State = StandupsList.State(),
      path: StackState<Path.State> = StackState(),
      deletions: Deletions = .allowed
    ) {
      self.destination = destination
      self.list = list
      self.path = path
      self.deletions = deletions
    }
  }

  /// Whether changes may delete: what the app's keeper says. Where nothing can be written, a
  /// deletion could never be kept, since a copy of the standups (a recovery file) brings back
  /// only what it holds.
  public enum Deletions: Equatable, Sendable {
    /// A change may delete.
    case allowed
    /// A change that deletes is refused, and nothing of it happens: no screen closes.
    case refused
  }

  /// What happens in the app.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case cancelEditButtonTapped
    case confirmAddButtonTapped
    case delegate(Delegate)
    case destination(PresentationAction<Destination.Action>)
    case dismissAddButtonTapped
    case doneEditingButtonTapped
    case list(StandupsList.Action)
    case path(StackAction<Path.State, Path.Action>)

    /// What the app tells whoever runs it.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// The user asked for a change that deletes, which ``State/deletions`` refuses: nothing of
      /// it happened.
      case deletionRefused(StandupsChange)
      /// The user changed the standups; the change is already on every screen.
      case standupsChanged(StandupsChange)
    }
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  /// Creates the app's reducer.
  public init() {}

  /// The screens, and the glue between them.
  public var body: some ReducerOf<Self> {
    Scope(state: \.list, action: \.list) { StandupsList() }
    Reduce { state, action in
      switch action {
      case .cancelEditButtonTapped, .dismissAddButtonTapped:
        state.destination = nil
        return .none

      case .confirmAddButtonTapped:
        return addStandup(&state)

      case .delegate:
        return .none

      case .destination:
        return .none

      case .doneEditingButtonTapped:
        return finishEditing(&state)

      case .list(.delegate(let delegate)):
        return handle(delegate, &state)

      case .list:
        return .none

      case .path(.element(let id, .detail(.delegate(let delegate)))):
        return handle(delegate, fromDetail: id, &state)

      case .path(.element(let id, .meeting(.delegate(.deleteMeeting(let meetingID))))):
        return deleteMeeting(meetingID, shownBy: id, &state)

      case .path(.element(let id, .record(.delegate(.save(let transcript))))):
        return saveMeeting(transcript: transcript, recordedBy: id, &state)

      case .path:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination) { Destination() }
    .forEach(\.path, action: \.path) { Path() }
  }
}

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
