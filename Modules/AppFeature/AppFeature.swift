public import CasePaths
public import Composable
import Dependencies
import MeetingFeature
import Models
import RecordMeeting
import StandupDetail
import StandupForm
public import StandupsList
public import StorageClient

/// The root of the app: the list of standups with a navigation stack on top of it.
///
/// This is the only feature that knows every other one. Screens speak through delegate
/// actions; the glue here turns them into pushes, pops, sheets and writes between screens (see
/// `AppFeature+Glue.swift`), and keeps the standups saved (see `AppFeature+Persistence.swift`).
public struct AppFeature: Reducer {
  /// The list, the stack above it, the sheet over both, and the state of saving.
  public struct State: Equatable, Sendable {
    /// The add or edit form, presented over whichever screen asked for it.
    @PresentationState public var destination: Destination.State?

    /// The root screen.
    public var list: StandupsList.State

    /// The screens pushed on top of the list, bottom first.
    public var path: StackState<Path.State>

    /// Where saving the standups has got.
    public var persistence: Persistence

    /// Creates the app's state; any path can be given, to start deep in the app.
    public init(
      destination: Destination.State? = nil,
      list: StandupsList.State = StandupsList.State(),
      path: StackState<Path.State> = StackState(),
      persistence: Persistence = Persistence()
    ) {
      self.destination = destination
      self.list = list
      self.path = path
      self.persistence = persistence
    }
  }

  /// What happens in the app.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case cancelEditButtonTapped
    case confirmAddButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case dismissAddButtonTapped
    case doneEditingButtonTapped
    case flushPendingSave
    case list(StandupsList.Action)
    case path(StackAction<Path.State, Path.Action>)
    case saveCooldownEnded
    case saveFailed(StorageError)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.storageClient.save) var saveStandups
  @Dependency(\.uuid) var uuid

  /// Creates the app's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    CombineReducers {
      Scope(state: \.list, action: \.list) { StandupsList() }
      Reduce { state, action in
        switch action {
        case .cancelEditButtonTapped, .dismissAddButtonTapped:
          state.destination = nil
          return .none

        case .confirmAddButtonTapped:
          return addStandup(&state)

        case .destination:
          return .none

        case .doneEditingButtonTapped:
          return finishEditing(&state)

        case .flushPendingSave:
          return flushPendingSave(&state)

        case .list(.delegate(.addStandup)):
          return presentAddForm(&state)

        case .list(.delegate(.standupTapped(let id))):
          return openDetail(of: id, &state)

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

        case .saveCooldownEnded:
          return saveCooldownEnded(&state)

        case .saveFailed(let error):
          return saveFailed(error, &state)
        }
      }
      .ifLet(\.$destination, action: \.destination) { Destination() }
      .forEach(\.path, action: \.path) { Path() }
    }
    .onChange(of: \.list.standups) { _, _ in
      Reduce { state, action in standupsChanged(&state, action: action) }
    }
  }
}
