import Composable
import IdentifiedCollections
import Models
import StandupsList

// What the glue between screens and the persistence policy both do to the app's state: show
// standups everywhere, ask whether changes are allowed, record changes made while loading,
// and tell the user about the data.

extension AppFeature.State {
  /// Every standup the list and the stack show, the list's copy first.
  var standupsOnScreen: IdentifiedArrayOf<Standup> {
    var standups = list.standups
    for element in path where standups[id: element.standup.id] == nil {
      standups.append(element.standup)
    }
    return standups
  }

  /// Puts `standups` on the list and on every screen that shows one of them.
  mutating func show(_ standups: IdentifiedArrayOf<Standup>) {
    list.standups = standups
    for id in path.ids {
      guard let shown = path[id: id]?.standup, let standup = standups[id: shown.id],
        standup != shown
      else { continue }
      path[id: id]?.standup = standup
    }
  }

  /// Whether the standups may change; when they may not (the data is read-only), tells the
  /// user why.
  mutating func acceptsChanges() -> Bool {
    guard case .readOnly = persistence.status else { return true }
    notify(.changesRefused)
    return false
  }

  /// Tells the persistence policy about a change made while the standups were loading.
  mutating func recordChangeBeforeLoad(_ record: (inout AppFeature.ChangesBeforeLoad) -> Void) {
    switch persistence.status {
    case .notLoaded, .loading:
      record(&persistence.changesBeforeLoad)
    case .loaded, .notSaving, .readOnly:
      return
    }
  }

  /// Adds the sample standups that are not on the list yet, and returns them.
  @discardableResult
  mutating func addSampleData() -> [Standup] {
    let added = [Standup.mock, .engineeringMock, .productMock].filter {
      list.standups[id: $0.id] == nil
    }
    list.standups.append(contentsOf: added)
    return added
  }

  /// Shows `alert`, or holds it back until the alert the user is answering closes: a message
  /// about the data never replaces a question.
  mutating func notify(_ alert: AlertState<AppFeature.Action.Alert>) {
    guard isAnsweringAlert else {
      self.alert = alert
      return
    }
    // NB: The same message twice in a row (two failed writes) is shown once.
    if persistence.waitingAlerts.last != alert {
      persistence.waitingAlerts.append(alert)
    }
  }

  /// Shows the oldest alert held back, once no other alert is up.
  mutating func showWaitingAlert() {
    guard !persistence.waitingAlerts.isEmpty, !isAnsweringAlert else { return }
    alert = persistence.waitingAlerts.removeFirst()
  }

  private var isAnsweringAlert: Bool {
    alert != nil || list.alert != nil || path.contains(where: \.hasAlert)
  }
}
