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
    observations.append(Weak(observation))
    return observation
  }

  func notifyObservers() {
    guard !observations.isEmpty else { return }
    observations.removeAll { $0.value?.isActive != true }
    for observation in observations {
      observation.value?.onChange()
    }
  }
}

struct Weak<Object: AnyObject> {
  weak var value: Object?

  init(_ value: Object) {
    self.value = value
  }
}
