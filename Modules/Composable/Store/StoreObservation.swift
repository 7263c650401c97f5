/// A subscription to a store's changes, returned by ``Store/observe(_:)``.
///
/// The subscription lasts as long as you keep this object, or until you call ``cancel()``.
///
/// ```swift
/// let observation = store.observe { render(store.state) }
/// ```
@MainActor
public final class StoreObservation {
  let onChange: @MainActor () -> Void
  private(set) var isActive = true

  init(onChange: @escaping @MainActor () -> Void) {
    self.onChange = onChange
  }

  /// Stops the notifications.
  public func cancel() {
    isActive = false
  }
}

// How a root store keeps its observers and tells them about each batch of actions.

extension RootStore {
  /// Calls `onChange` after every batch of actions until the returned observation is cancelled
  /// or released.
  package func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    let observation = StoreObservation(onChange: onChange)
    observers.append { [weak observation] in
      guard let observation, observation.isActive else { return false }
      observation.onChange()
      return true
    }
    return observation
  }

  func notifyObservers() {
    guard !observers.isEmpty else { return }
    // Told from a copy: an observer may start another observation while it is told.
    let told = observers
    observers = []
    observers = told.filter { notify in notify() } + observers
  }
}
