public import CasePaths
public import Composable
import Dependencies
import MeetingFeature
import Models
import RecordMeeting
import StandupDetail
import StandupForm
public import StandupsList
import StorageClient

/// The root of the app: the list of standups with a navigation stack on top of it.
///
/// This is the only feature that knows every other one. Screens speak through delegate
/// actions; the glue here turns them into pushes, pops, sheets and changes to the standups (see
/// `AppFeature+Glue.swift`). Loading and saving the standups are one policy, a part of its own
/// (`Persistence/`) that wraps the screens and sees every change they make: nothing the user
/// does while they load is lost, data that could not be read is never written over, another
/// instance's changes are merged, and what is written reads back the same.
public struct AppFeature: Reducer {
  /// The list, the stack above it, the sheet and alert over both, and the state of the data.
  public struct State: Equatable, Sendable {
    /// A message about the app's data: it could not be loaded or saved, or a change was refused.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The add or edit form, presented over whichever screen asked for it.
    @PresentationState public var destination: Destination.State?

    /// The root screen.
    public var list: StandupsList.State

    /// The screens pushed on top of the list, bottom first.
    public var path: StackState<Path.State>

    /// Where loading and saving the standups have got.
    public var persistence: Persistence

    /// Creates the app's state; any path can be given, to start deep in the app.
    public init(
      alert: AlertState<Action.Alert>? = nil,
      destination: Destination.State? = nil,
      list: StandupsList.State = StandupsList.State(),
      path: StackState<Path.State> = StackState(),
      persistence: Persistence = Persistence()
    ) {
      self.alert = alert
      self.destination = destination
      self.list = list
      self.path = path
      self.persistence = persistence
    }
  }

  /// What happens in the app.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case alert(PresentationAction<Alert>)
    case cancelEditButtonTapped
    case confirmAddButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dismissAddButtonTapped
    case doneEditingButtonTapped
    case list(StandupsList.Action)
    case onTask
    case path(StackAction<Path.State, Path.Action>)
    case persistence(PersistenceAction)

    /// The buttons of the app's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case keepUnreadableDataAside(then: Persistence.FreshStart)
    }
  }

  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  /// Creates the app's reducer.
  public init() {}

  /// The screens and the glue between them, inside the persistence that saves what they change.
  public var body: some ReducerOf<Self> {
    StandupsPersistence {
      Scope(state: \.list, action: \.list) { StandupsList() }
      Reduce { state, action in
        switch action {
        case .alert:
          return .none

        case .cancelEditButtonTapped, .dismissAddButtonTapped:
          state.destination = nil
          return .none

        case .confirmAddButtonTapped:
          return addStandup(&state)

        case .destination:
          return .none

        case .doneEditingButtonTapped:
          return finishEditing(&state)

        case .list(.delegate(let delegate)):
          return handle(delegate, &state)

        case .list:
          return .none

        case .onTask:
          return .none

        case .path(.element(let id, .detail(.delegate(let delegate)))):
          return handle(delegate, fromDetail: id, &state)

        case .path(.element(let id, .meeting(.delegate(.deleteMeeting(let meetingID))))):
          return deleteMeeting(meetingID, shownBy: id, &state)

        case .path(.element(let id, .record(.delegate(.save(let transcript))))):
          return saveMeeting(transcript: transcript, recordedBy: id, &state)

        case .path:
          return .none

        case .persistence:
          return .none
        }
      }
      .ifLet(\.$alert, action: \.alert)
      .ifLet(\.$destination, action: \.destination) { Destination() }
      .forEach(\.path, action: \.path) { Path() }
    }
  }
}
