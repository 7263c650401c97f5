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
