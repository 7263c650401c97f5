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
  /// > Important: Call this inside the reducer that owns the effect: the navigation path is that
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
    // NB: A cancellable `.none` cancels nothing, even in flight, as in the Composable
    // Architecture (`CancellationTests.cancellingNothingInFlightCancelsNothing`).
    if isNone {
      return .none
    }
    return Self(
      box: CancellableBox(.inCurrentScope(id: id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect with the given identifier.
  ///
  /// Only effects of the same store and navigation path are cancelled (see
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
    // A cancellation is nothing, cancellable under the identifier, that cancels in flight.
    Self(box: CancellableBox(.inCurrentScope(id: id), cancelInFlight: true, .none))
  }
}
