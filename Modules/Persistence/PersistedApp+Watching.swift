import AppFeature
import Composable
import IdentifiedCollections
import Models
import StorageClient

// Watching: what other instances of the app commit is shown here, with this instance's own
// changes not yet written applied on top, so that nothing the user did is undone on screen. What
// another instance's save did to the user's own values is told, with a way to put them back.

extension PersistedApp {
  /// Asks the storage what other instances committed since it last read them. A read that fails
  /// (another program holds the database for a moment) is counted, and told once it keeps
  /// failing (``StorageState/problem``).
  func readChangesElsewhere(_ state: State) -> Effect<Action> {
    guard state.storage.isWritable else { return .none }
    return .run { [changesElsewhere] send in
      do {
        guard let changes = try await changesElsewhere() else { return }
        await send(.changesElsewhereFound(changes))
      } catch let error as StorageError {
        if case .replaced = error {
          await send(.writeFailed(error))
        } else {
          await send(.changesElsewhereReadFailed)
        }
      }
    }
  }

  /// Shows what another instance committed. A standup deleted there goes here too, unless the
  /// user is editing or recording it (``deletedElsewhere(_:wasJustChanged:_:)``); one changed
  /// there in a way that cannot be read is shown as it was, and named.
  func show(_ changes: ChangesElsewhere, _ state: inout State) -> Effect<Action> {
    state.storage.failedReadsInARow = 0
    var standups = changes.standups
    for write in state.storage.pendingWrites {
      if case .change(let change) = write {
        change.apply(to: &standups)
      }
    }
    var effects: [Effect<Action>] = []
    for id in changes.deletions(from: state.app.list.standups) where standups[id: id] == nil {
      effects.append(deletedElsewhere(id, by: changes.deletedBy[id], &state))
    }
    for standup in standups where !state.storage.deletedElsewhere.contains(standup.id) {
      state.app.show(standup)
    }
    if !changes.unreadable.isEmpty {
      state.tell([State.unreadableNotice(changes.unreadable, atLaunch: false)])
    }
    if let replaced = changes.replacedValues {
      tell(replaced, &state)
    }
    return .merge(effects)
  }

  /// Another instance deleted a standup, or `member` of the team did. Its screens close, and the
  /// user is told; but while the user edits or records it, or when the deletion was found by a
  /// change of theirs to it (`wasJustChanged`), nothing is dropped: it stays, and they are asked
  /// whether to keep it (it is stored again, with their edit or their meeting) or let it go.
  func deletedElsewhere(
    _ id: Standup.ID,
    by member: String? = nil,
    wasJustChanged: Bool = false,
    _ state: inout State
  ) -> Effect<Action> {
    guard let standup = state.app.list.standups[id: id],
      !state.storage.deletedElsewhere.contains(id)
    else { return .none }
    if wasJustChanged || state.app.isEditing(id) || state.app.isRecording(id) {
      state.storage.deletedElsewhere.append(id)
      state.notify(
        .deletedElsewhere(standup, whileRecording: state.app.isRecording(id), by: member))
      return .none
    }
    let wasShown = state.app.path.contains { $0.standup.id == id }
    state.app.remove(id)
    if wasShown {
      state.tell([
        "\(standup.displayTitle.quotedForPeople) was deleted "
          + (member.map { "by \($0), in the team," } ?? "in another instance of Standups,")
          + " so its screens closed."
      ])
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

  /// The values of the user's that other instances' saves replaced, as the storage lists them
  /// now: each new one is told, with a way to put it back; one another instance put away
  /// already is no longer asked about, whether its alert waits or is on screen.
  func tell(_ replaced: [ReplacedValue], _ state: inout State) {
    let known = Set(state.storage.replacedValues.map(\.id))
    let listed = Set(replaced.map(\.id))
    let answeredElsewhere = state.storage.replacedValues.filter { !listed.contains($0.id) }
    state.storage.replacedValues = replaced
    func asksAbout(_ alert: AlertState<Action.Alert>) -> ReplacedValue? {
      for case .putReplacedValueBack(let id)? in alert.buttons.map(\.action) {
        return answeredElsewhere.first { $0.id == id }
      }
      return nil
    }
    state.storage.waitingAlerts.removeAll { asksAbout($0) != nil }
    if let shown = state.alert, let value = asksAbout(shown) {
      state.alert = nil
      state.tell([
        "Another instance of Standups answered about the replaced value of "
          + "\(value.standupTitle.quotedForPeople)."
      ])
      state.showWaitingAlert()
    }
    for value in replaced where !known.contains(value.id) {
      state.notify(.valueReplaced(value))
    }
  }

  /// The user answered about a replaced value: it is put away, and put back first when asked.
  func putAway(
    _ id: ReplacedValue.ID,
    restoring: Bool,
    _ state: inout State
  ) -> Effect<Action> {
    guard let replaced = state.storage.replacedValues.first(where: { $0.id == id }) else {
      return .none
    }
    state.storage.replacedValues.removeAll { $0.id == id }
    var effects: [Effect<Action>] = []
    if restoring, state.app.list.standups[id: replaced.standupID] != nil {
      state.app.apply(.edited(replaced.standupID, replaced.restoringEdit))
      effects.append(record(.edited(replaced.standupID, replaced.restoringEdit), &state))
    }
    if state.storage.isWritable {
      effects.append(enqueue(.putAway(id), &state))
    }
    return .merge(effects)
  }

  /// A change of the user's renamed attendees another instance had removed: they were kept, and
  /// the user may let each go.
  func renamedAttendeesWereKept(
    _ attendees: [Attendee],
    of id: Standup.ID,
    _ state: inout State
  ) -> Effect<Action> {
    guard let standup = state.app.list.standups[id: id] else { return .none }
    for attendee in attendees {
      if standup.attendees[id: attendee.id] == nil {
        state.app.apply(
          .edited(id, StandupEdit(attendees: AttendeesEdit(added: [attendee], order: []))))
      }
      state.notify(.attendeeRemovedElsewhere(attendee, of: standup))
    }
    return .none
  }

  /// The user lets an attendee removed elsewhere go.
  func letAttendeeGo(
    _ attendeeID: Attendee.ID,
    from standupID: Standup.ID,
    _ state: inout State
  ) -> Effect<Action> {
    guard state.app.list.standups[id: standupID]?.attendees[id: attendeeID] != nil else {
      return .none
    }
    let change = StandupsChange.edited(
      standupID, StandupEdit(attendees: AttendeesEdit(removed: [attendeeID])))
    state.app.apply(change)
    return record(change, &state)
  }
}

extension String {
  /// The text in curly quotes, for a sentence.
  var quotedForPeople: String { "“\(self)”" }
}
