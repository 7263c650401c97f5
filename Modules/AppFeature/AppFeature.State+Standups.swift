import Composable
public import Models

// How a change to the standups reaches every place that shows them: the list, and each screen
// on the stack that shows the same standup. The glue uses these for the user's changes; whoever
// runs the app uses them for changes made elsewhere (another instance of the app). This fan-out
// is what a shared value (`@Shared`) does in the Composable Architecture.

extension AppFeature.State {
  /// Applies `change` to the list, and shows the result on every screen: screens of a deleted
  /// standup close, and so do screens of a past meeting that is gone.
  public mutating func apply(_ change: StandupsChange) {
    change.apply(to: &list.standups)
    for id in change.standupIDs {
      showOnScreens(id)
    }
  }

  /// Shows `standup` as it is now stored: on the list (at its end when the list lacks it) and on
  /// every screen that shows it.
  public mutating func show(_ standup: Standup) {
    list.standups[id: standup.id] = standup
    showOnScreens(standup.id)
  }

  /// Removes a standup from the list, and closes every screen that shows it.
  public mutating func remove(_ id: Standup.ID) {
    list.standups.remove(id: id)
    showOnScreens(id)
  }

  /// Puts the list's copy of a standup on every screen that shows it; when the list has no such
  /// standup, the screens close.
  mutating func showOnScreens(_ id: Standup.ID) {
    guard let standup = list.standups[id: id] else {
      path.removeAll { $0.standup.id == id }
      return
    }
    for elementID in path.ids where path[id: elementID]?.standup.id == id {
      if case .meeting(let screen)? = path[id: elementID],
        standup.meetings[id: screen.meeting.id] == nil
      {
        path[id: elementID] = nil
      } else if path[id: elementID]?.standup != standup {
        path[id: elementID]?.standup = standup
      }
    }
  }
}
