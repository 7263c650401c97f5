public import CasePaths
public import Composable
public import IdentifiedCollections
import IssueReporting
public import Models

/// The root screen: every standup, with ways to add one, delete one, and open one.
///
/// The list only shows standups. Loading and saving them is the app's business (one policy, in
/// one place), and so are adding, opening and deleting: the list asks for them with delegate
/// actions, after confirming a deletion with the user.
public struct StandupsList: Reducer {
  /// The standups and the alert shown over them.
  public struct State: Equatable, Sendable {
    /// The confirmation shown before deleting.
    @PresentationState public var alert: AlertState<Action.Alert>?

    /// The standups, in display order. The parent owns them and writes them here.
    public var standups: IdentifiedArrayOf<Standup>

    /// Creates the list's state.
    public init(alert: AlertState<Action.Alert>? = nil, standups: IdentifiedArrayOf<Standup> = []) {
      self.alert = alert
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
    case loadSampleDataButtonTapped
    case standupTapped(id: Standup.ID)

    /// The buttons of the list's alerts.
    @CasePathable
    public enum Alert: Equatable, Sendable {
      case confirmDeletion(id: Standup.ID)
    }

    /// What the list asks of its parent.
    @CasePathable
    public enum Delegate: Equatable, Sendable {
      /// Let the user fill in a new standup.
      case addStandup
      /// Delete this standup, which the user confirmed.
      case deleteStandup(Standup.ID)
      /// Add the sample standups.
      case loadSampleData
      /// Show this standup.
      case standupTapped(Standup.ID)
    }
  }

  /// Creates the list's reducer.
  public init() {}

  /// Asks before deleting, and asks the parent for everything else.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        return .send(.delegate(.addStandup))

      case .alert(.presented(.confirmDeletion(let id))):
        return .send(.delegate(.deleteStandup(id)))

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

      case .loadSampleDataButtonTapped:
        return .send(.delegate(.loadSampleData))

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
  /// Asks before deleting a standup.
  public static func deleteStandup(_ standup: Standup) -> Self {
    AlertState {
      // NB: A title from a file can be of any length: the question quotes a line's worth.
      TextState("Delete \"\(standup.displayTitle(maxLength: 100))\"?")
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
