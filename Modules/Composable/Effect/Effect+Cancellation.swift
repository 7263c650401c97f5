import Dependencies

extension Effect {
  /// Makes the effect cancellable with an identifier.
  ///
  /// Cancel it later with ``cancel(id:)``. Identifiers are scoped to the store and to the
  /// feature's place in the navigation tree: two stack elements, a sheet and its presenter, or
  /// two independent stores can all use the same identifier without cancelling each other's
  /// work.
  ///
  /// ```swift
  /// enum CancelID { case search }
  ///
  /// case .queryChanged(let query):
  ///   return .run { send in
  ///     try await clock.sleep(for: .milliseconds(300))
  ///     await send(.results(try await client.search(query)))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// > Important: Call this inside the reducer that owns the effect: the navigation scope is read
  /// > from the dependencies in effect when the method is called.
  ///
  /// - Parameters:
  ///   - id: The identifier.
  ///   - cancelInFlight: Whether to cancel any running effect with the same identifier before
  ///     starting this one, which turns the effect into a debounce or "latest wins" request.
  /// - Returns: The cancellable effect.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    let key = CancellationKey(id: id, path: DependencyValues._current.navigationIDPath)
    if case .none = operation, !cancelInFlight {
      return .none
    }
    return Self(operation: .cancellable(key, cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect with the given identifier.
  ///
  /// Only effects of the same store and navigation scope are cancelled (see
  /// ``cancellable(id:cancelInFlight:)``). Cancellation happens as soon as the store starts this
  /// effect, before any later action is processed.
  ///
  /// ```swift
  /// case .stopButtonTapped:
  ///   return .cancel(id: CancelID.timer)
  /// ```
  ///
  /// - Parameter id: The identifier to cancel.
  /// - Returns: An effect that cancels.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(
      operation: .cancel(
        CancellationKey(id: id, path: DependencyValues._current.navigationIDPath)
      )
    )
  }
}

/// The identity of a group of cancellable effects: a user's identifier in a navigation scope.
package struct CancellationKey: Hashable, Sendable, CustomStringConvertible {
  package let id: HashableIdentity
  package let path: NavigationIDPath

  package init(id: some Hashable & Sendable, path: NavigationIDPath) {
    self.init(id: HashableIdentity(id), path: path)
  }

  package init(id: HashableIdentity, path: NavigationIDPath) {
    self.id = id
    self.path = path
  }

  package var description: String {
    "\(id) in \(path)"
  }
}
