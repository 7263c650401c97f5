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

  /// Shows what another instance committed. A standup deleted there goes here too, unless the
  /// user is editing or recording it (``deletedElsewhere(_:_:)``).
  func show(_ changes: ChangesElsewhere, _ state: inout State) -> Effect<Action> {
    var standups = changes.standups
    for write in state.storage.pendingWrites {
      if case .change(let change) = write {
        change.apply(to: &standups)
      }
    }
    var effects: [Effect<Action>] = []
    for id in changes.deleted where standups[id: id] == nil {
      effects.append(deletedElsewhere(id, &state))
    }
    for standup in standups where !state.storage.deletedElsewhere.contains(standup.id) {
      state.app.show(standup)
    }
    return .merge(effects)
  }

  /// Another instance deleted a standup. Its screens close, and the user is told; but while the
  /// user edits or records it, or when the deletion was found by a change of theirs to it
  /// (`wasJustChanged`), nothing is dropped: it stays, and they are asked whether to keep it (it
  /// is stored again, with their edit or their meeting) or let it go.
  func deletedElsewhere(
    _ id: Standup.ID,
    wasJustChanged: Bool = false,
    _ state: inout State
  ) -> Effect<Action> {
    guard let standup = state.app.list.standups[id: id],
      !state.storage.deletedElsewhere.contains(id)
    else { return .none }
    if wasJustChanged || state.app.isEditing(id) || state.app.isRecording(id) {
      state.storage.deletedElsewhere.append(id)
      state.notify(.deletedElsewhere(standup, whileRecording: state.app.isRecording(id)))
      return .none
    }
    let wasShown = state.app.path.contains { $0.standup.id == id }
    state.app.remove(id)
    if wasShown {
      state.storage.notice =
        "\(standup.displayTitle.quotedForPeople) was deleted in another instance of Standups, so "
        + "its screens closed."
    }
    return .none
  }

  /// The user keeps a standup deleted elsewhere: it is stored again, as it is here, at the end
  /// of the list.
  func keepDeletedStandup(_ id: Standup.ID, _ state: inout State) -> Effect<Action> {
    state.storage.deletedElsewhere.removeAll { $0 == id }
    guard let standup = state.app.list.standups[id: id] else { return .none }
    // NB: Stored again, it goes to the end of the list; so it does here.
    state.app.list.standups.remove(id: id)
    state.app.list.standups.append(standup)
    return record(.added([standup]), &state)
  }

  /// The user lets a standup deleted elsewhere go: its form, its screens and its meeting close,
  /// and it is deleted here too.
  ///
  /// NB: Deleted again, not only forgotten: a meeting saved while the question was up stored the
  /// standup again, so that no meeting is lost before the user has answered.
  func letDeletedStandupGo(_ id: Standup.ID, _ state: inout State) -> Effect<Action> {
    state.storage.deletedElsewhere.removeAll { $0 == id }
    if state.app.isEditing(id) {
      state.app.destination = nil
    }
    state.app.remove(id)
    return record(.deleted(id), &state)
  }
}

extension String {
  /// The text in curly quotes, for a sentence.
  var quotedForPeople: String { "“\(self)”" }
}
