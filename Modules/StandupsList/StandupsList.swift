public import CasePaths
public import Composable
import Dependencies
public import IdentifiedCollections
import IssueReporting
public import Models
public import StorageClient

/// The root screen: every standup, with ways to add one, delete one, and open one.
///
/// The list loads the standups when it first appears and offers sample data when the saved
/// data cannot be read. Adding a standup and opening one are the parent's business: the list
/// only says what the user asked for.
public struct StandupsList: Reducer {
  /// The standups and the alert shown over them.
  public struct State: Equatable, Sendable {
    /// A confirmation or a failure shown over the list.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// Whether the standups have been loaded yet.
    public var loadStatus: LoadStatus

    /// The standups, in display order. The parent may replace them: after integration it owns
    /// the truth.
    public var standups: IdentifiedArrayOf<Standup>

    /// How far loading has got.
    public enum LoadStatus: Equatable, Sendable {
      case notLoaded
      case loading
      case loaded
      case failed
    }

    /// Creates the list's state.
    public init(
      alert: AlertState<Action.Alert>? = nil,
      loadStatus: LoadStatus = .notLoaded,
      standups: IdentifiedArrayOf<Standup> = []
    ) {
      self.alert = alert
      self.loadStatus = loadStatus
      self.standups = standups
    }
  }

  /// What happens on the list.
  @CasePathable
  public enum Action: Equatable, Sendable {
    case addButtonTapped
    case alert(PresentationAction<Alert>)
    case delegate(Delegate)
    case deleteButtonTapped(id: Standup.ID)
    case onTask
    case standupsLoaded(Result<IdentifiedArrayOf<Standup>, StorageError>)
    case standupTapped(id: Standup.ID)

    /// The buttons of the list's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion(id: Standup.ID)
      case confirmLoadSampleData
    }

    /// What the list asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Let the user fill in a new standup.
      case addStandup
      /// Show this standup.
      case standupTapped(Standup.ID)
    }
  }

  @Dependency(\.storageClient.load) var loadStandups

  /// Creates the list's reducer.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        return .send(.delegate(.addStandup))

      case .alert(.presented(.confirmDeletion(let id))):
        state.standups.remove(id: id)
        return .none

      case .alert(.presented(.confirmLoadSampleData)):
        state.standups = [.mock, .engineeringMock, .productMock]
        return .none

      case .alert(.dismiss):
        return .none

      case .delegate:
        return .none

      case .deleteButtonTapped(let id):
        guard let standup = state.standups[id: id] else {
          reportIssue("The list has no standup \(id) to delete.")
          return .none
        }
        state.alert = .deleteStandup(standup)
        return .none

      case .onTask:
        guard state.loadStatus == .notLoaded else { return .none }
        state.loadStatus = .loading
        return .run { [loadStandups] send in
          do {
            await send(.standupsLoaded(.success(try await loadStandups())))
          } catch let error as StorageError {
            await send(.standupsLoaded(.failure(error)))
          } catch {
            await send(.standupsLoaded(.failure(.readFailed("\(error)"))))
          }
        }

      case .standupsLoaded(.success(let standups)):
        state.loadStatus = .loaded
        state.standups = standups
        return .none

      case .standupsLoaded(.failure(let error)):
        state.loadStatus = .failed
        state.alert = .dataFailedToLoad(error)
        return .none

      case .standupTapped(let id):
        guard state.standups[id: id] != nil else {
          reportIssue("The list has no standup \(id) to open.")
          return .none
        }
        return .send(.delegate(.standupTapped(id)))
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}

extension AlertState where Action == StandupsList.Action.Alert {
  /// Tells the user that the saved standups could not be read, and offers sample data.
  public static func dataFailedToLoad(_ error: StorageError) -> Self {
    AlertState {
      TextState("Data failed to load")
    } actions: {
      ButtonState(action: .confirmLoadSampleData) {
        TextState("Load sample data")
      }
      ButtonState(role: .cancel) {
        TextState("Start empty")
      }
    } message: {
      let backupNote =
        if case .corrupt = error {
          " The unreadable file will be kept as a backup beside the new one when you next save."
        } else {
          ""
        }
      return TextState(
        """
        \(error.description)\(backupNote)

        Would you like to load some sample data to play around with?
        """
      )
    }
  }

  /// Tells the user that the standups could not be saved, and that nothing was lost yet.
  public static func saveFailed(_ error: StorageError) -> Self {
    AlertState {
      TextState("Changes not saved")
    } actions: {
      ButtonState(role: .cancel) {
        TextState("OK")
      }
    } message: {
      TextState(
        """
        \(error.description)

        Your changes are still here and the previously saved standups are untouched. Saving \
        will be tried again with your next change.
        """
      )
    }
  }

  /// Asks before deleting a standup.
  public static func deleteStandup(_ standup: Standup) -> Self {
    AlertState {
      TextState("Delete \"\(standup.title)\"?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: standup.id)) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    } message: {
      TextState("The standup and all of its past meetings will be deleted.")
    }
  }
}
