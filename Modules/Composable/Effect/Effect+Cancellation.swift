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
  /// > Important: Call this inside the reducer that owns the effect: the navigation scope is that
  /// > of the reducer running when the method is called.
  ///
  /// > Note: Making `.none` cancellable gives `.none`, which cancels nothing even with
  /// > `cancelInFlight`; return ``cancel(id:)`` to stop earlier work without starting new work.
  ///
  /// - Parameters:
  ///   - id: The identifier.
  ///   - cancelInFlight: Whether to cancel any running effect with the same identifier before
  ///     starting this one, which turns the effect into a debounce or "latest wins" request.
  /// - Returns: The cancellable effect.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    // NB: As in the Composable Architecture, a cancellable `.none` cancels nothing, even with
    // `cancelInFlight`: there is no new work for the old to make way for.
    if isNone {
      return .none
    }
    return Self(
      box: CancellableBox(.inCurrentScope(id: id), cancelInFlight: cancelInFlight, self))
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
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(box: CancelBox(.inCurrentScope(id: id)))
  }
}

/// The identity of a group of cancellable effects: an identifier in a navigation scope.
///
/// The identifier is either a user's (from ``Effect/cancellable(id:cancelInFlight:)``), or a
/// navigated child's, under which a navigation operator registers all of that child's work; a
/// child's key has the child's *slot* as its path, so the runtime can index the live children of
/// each slot.
@usableFromInline
package struct CancellationKey: Hashable, Sendable, CustomStringConvertible {
  package let id: HashableIdentity
  package let path: NavigationIDPath

  @inlinable
  package init(id: some Hashable & Sendable, path: NavigationIDPath) {
    self.init(id: HashableIdentity(id), path: path)
  }

  @usableFromInline
  package init(id: HashableIdentity, path: NavigationIDPath) {
    self.id = id
    self.path = path
  }

  /// The key of the identifier `id` in the navigation scope of the running reducer.
  @inlinable
  static func inCurrentScope(id: some Hashable & Sendable) -> Self {
    Self(id: id, path: ReducerContext.currentNavigationIDPath)
  }

  /// The key of all the work of the child `child` of the navigation slot `slot`.
  package static func navigation(slot: NavigationIDPath, child: HashableIdentity) -> Self {
    Self(id: NavigatedChild(child: child), path: slot)
  }

  /// Whether this is a navigated child's key.
  var isNavigation: Bool {
    id.holds(NavigatedChild.self)
  }

  /// The child whose work the key covers, when it is a navigated child's key.
  var navigatedChild: HashableIdentity? {
    guard isNavigation else { return nil }
    return id.value(as: NavigatedChild.self)?.child
  }

  @usableFromInline
  package var description: String {
    "\(id) in \(path)"
  }
}

/// The identifier of a navigated child's key.
struct NavigatedChild: Hashable, Sendable, CustomStringConvertible {
  let child: HashableIdentity

  var description: String {
    "child \(child)"
  }
}
