public import AppFeature
import Composable
public import StorageClient

// Opening: the app starts from what the storage loaded — the standups, whether they can be
// written, or why they could not be read — and can start again when the user has what could not
// be read kept aside.

extension PersistedApp.State {
  /// The app as the stored standups, or the failure to read them, start it.
  ///
  /// Data that could not be read shows its alert, which offers to keep it aside; a store that is
  /// only read says why.
  ///
  /// - Parameters:
  ///   - app: The screens to start on; their standups are replaced by the stored ones.
  ///   - stored: What ``StorageClient/load`` gave.
  public init(
    app: AppFeature.State = AppFeature.State(), stored: Result<StoredStandups, StorageError>
  ) {
    self.init(app: app)
    switch stored {
    case .success(let stored):
      for standup in stored.standups {
        self.app.show(standup)
      }
      switch stored.access {
      case .readWrite:
        storage.status = .writable
      case .readOnly(let reason):
        storage.status = .readOnly(reason)
        alert = .readOnly(reason)
      }
    case .failure(let error):
      storage.status = .notSaving(error)
      alert = .loadFailed(error)
    }
  }
}

extension PersistedApp {
  /// The user chose to start again: keep the data that could not be read aside first.
  func keepUnreadableDataAside(then freshStart: FreshStart) -> Effect<Action> {
    .run { [keepUnreadableData] send in
      let result: Result<String?, StorageError>
      do {
        result = .success(try await keepUnreadableData())
      } catch {
        result = .failure(StorageError(error, whileDoing: .keepingAside))
      }
      await send(.unreadableDataKeptAside(result, then: freshStart))
    }
  }

  /// The data that could not be read is safe (or could not be made safe). Once it is, the store
  /// is empty, and everything on screen is written to it: the sample data when asked for, and
  /// whatever was changed meanwhile.
  func unreadableDataKeptAside(
    _ result: Result<String?, StorageError>,
    then freshStart: FreshStart,
    _ state: inout State
  ) -> Effect<Action> {
    guard case .notSaving = state.storage.status else { return .none }
    switch result {
    case .success(let backup):
      state.storage.status = .writable
      state.storage.backup = backup ?? state.storage.backup
      state.storage.hasChangesOnlyInMemory = false
      if freshStart == .sampleData {
        state.app.apply(
          .added(
            [.mock, .engineeringMock, .productMock].filter {
              state.app.list.standups[id: $0.id] == nil
            }))
      }
      guard !state.app.list.standups.isEmpty else { return .none }
      return enqueue(.change(.added(state.app.list.standups.elements)), &state)
    case .failure(let error):
      state.notify(.backupFailed(error))
      return .none
    }
  }
}

extension PersistedApp.State {
  /// Shows `alert`, or holds it back until the alert the user is answering closes: a message
  /// about the data never replaces a question.
  mutating func notify(_ alert: AlertState<PersistedApp.Action.Alert>) {
    guard isAnsweringAlert else {
      self.alert = alert
      return
    }
    // NB: The same message twice in a row (two failed writes) is shown once.
    if storage.waitingAlerts.last != alert {
      storage.waitingAlerts.append(alert)
    }
  }

  /// Shows the oldest alert held back, once no other alert is up.
  mutating func showWaitingAlert() {
    guard !storage.waitingAlerts.isEmpty, !isAnsweringAlert else { return }
    alert = storage.waitingAlerts.removeFirst()
  }

  private var isAnsweringAlert: Bool {
    alert != nil || app.list.alert != nil || app.path.contains(where: \.hasAlert)
  }
}
