import AppFeature
import Composable
import IdentifiedCollections
import Models
import StorageClient

// Watching: what other instances of the app commit is shown here, with this instance's own
// changes not yet written applied on top, so that nothing the user did is undone on screen.

extension PersistedApp {
  /// Asks the storage what other instances committed since it last looked.
  func lookForChangesElsewhere(_ state: State) -> Effect<Action> {
    guard state.storage.isWritable else { return .none }
    return .run { [changesElsewhere] send in
      guard let changes = try? await changesElsewhere() else { return }
      await send(.changesElsewhereFound(changes))
    }
  }

  /// Shows what another instance committed. Standups deleted there close their screens here,
  /// except one whose meeting is being recorded here: it is kept, and stored again, so that the
  /// meeting has somewhere to go.
  func show(_ changes: ChangesElsewhere, _ state: inout State) -> Effect<Action> {
    var standups = changes.standups
    for write in state.storage.pendingWrites {
      if case .change(let change) = write {
        change.apply(to: &standups)
      }
    }
    var restored: [Standup] = []
    for id in changes.deleted where standups[id: id] == nil {
      if let recorded = state.app.standupBeingRecorded(id) {
        // NB: Stored again, it goes to the end of the list; so it does here.
        state.app.list.standups.remove(id: id)
        state.app.list.standups.append(recorded)
        restored.append(recorded)
      } else {
        state.app.remove(id)
      }
    }
    for standup in standups {
      state.app.show(standup)
    }
    guard !restored.isEmpty else { return .none }
    return record(.added(restored), &state)
  }
}

extension AppFeature.State {
  /// The standup a recorder on the stack is recording, as the list has it (or the recorder,
  /// when the list no longer does).
  fileprivate func standupBeingRecorded(_ id: Standup.ID) -> Standup? {
    guard let recorder = path.first(where: { $0.is(\.record) && $0.standup.id == id }) else {
      return nil
    }
    return list.standups[id: id] ?? recorder.standup
  }
}
