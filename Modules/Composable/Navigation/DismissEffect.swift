public import Dependencies

/// Lets a feature dismiss itself: pop itself off a navigation stack, or close the sheet it is
/// presented in.
///
/// Read it from the `dismiss` dependency and call it from an effect. The navigation operator
/// that runs the feature decides what dismissing means, so the feature never needs to know how
/// it was presented. Reading the dependency in the reducer, or capturing it in the effect's
/// capture list, both work.
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
///
/// case .cancelButtonTapped:
///   return .run { [dismiss] _ in await dismiss() }
/// ```
///
/// > Important: Dismissal goes through the parent as an action, and the feature's effects are
/// > cancelled once it is gone, so code after `await dismiss()` may not run. Called where there
/// > is nothing to dismiss (in a feature at the root of a store), it reports an issue.
///
/// Setting the dependency with `withDependencies`, as a test store does at its root, changes
/// what `dismiss()` does in the feature where it is set. A feature that `forEach` or a
/// presentation `ifLet` runs below that point still dismisses itself, as it does in the
/// Composable Architecture, where those operators set the dependency for their children.
public struct DismissEffect: Sendable {
  /// Where a value of the dependency comes from.
  enum Origin: Sendable, Equatable {
    /// The dependency's default.
    case `default`
    /// Set with `withDependencies` where `path` was the path `dismiss()` dismissed (`nil` at the
    /// root of a store). It applies in that feature only: a feature that a navigation operator
    /// presents below it dismisses itself again, as when the operator sets the dependency.
    case set(in: NavigationIDPath?)
  }

  /// What dismissing does where the value applies rather than a navigated feature's dismissal:
  /// report that there is nothing to dismiss, or a custom dismissal such as a test store's.
  let dismissHere: @MainActor @Sendable (CodeLocation) -> Void
  let origin: Origin

  /// Creates a dismiss effect that calls `dismiss` instead of dismissing anything.
  ///
  /// For a test of a feature on its own, where nothing presents it to dismiss it: set it where
  /// the feature's dependencies are prepared, and the feature's `dismiss()` calls it.
  ///
  /// ```swift
  /// let store = TestStore(initialState: Feature.State()) {
  ///   Feature()
  /// } withDependencies: {
  ///   $0.dismiss = DismissEffect { dismissed.setValue(true) }
  /// }
  /// ```
  ///
  /// - Parameter dismiss: What `dismiss()` does where the value is set.
  public init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.init(dismissHere: { _ in dismiss() }, origin: .default)
  }

  private init(
    dismissHere: @escaping @MainActor @Sendable (CodeLocation) -> Void,
    origin: Origin
  ) {
    self.dismissHere = dismissHere
    self.origin = origin
  }

  /// Dismisses the feature that owns the running effect.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, which a reported issue points at.
  ///   - filePath: The full path of that file.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: The path comes from where the effect was created, not from the value, so that a value
    // read anywhere in a feature dismisses that feature (`DismissEffectTests`).
    let path = ReducerContext.current.dismissedPath
    guard let path, origin != .set(in: path) else {
      await dismissHere(location)
      return
    }
    guard let dismiss = DismissHandlers.handler(for: path) else {
      location.reportIssue(
        """
        "dismiss()" was called outside of the effects of the feature it belongs to, so there \
        is nothing it can dismiss.

        Call it from an effect that the feature's reducer returned.
        """
      )
      return
    }
    await dismiss()
  }

  static let `default` = Self(
    dismissHere: { reportNothingToDismiss(at: $0) },
    origin: .default
  )

  /// The value as set where `path` is the path `dismiss()` dismisses.
  fileprivate func set(in path: NavigationIDPath?) -> Self {
    Self(dismissHere: dismissHere, origin: .set(in: path))
  }
}

extension DependencyValues {
  /// Dismisses the feature whose effect is running. See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue.set(in: ReducerContext.current.dismissedPath) }
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect.default
  static let testValue = DismissEffect.default
}

private func reportNothingToDismiss(at location: CodeLocation) {
  location.reportIssue(
    """
    "dismiss()" was called, but there is nothing to dismiss.

    The feature that called it is not presented by "ifLet" with "PresentationState", nor is \
    it an element of a stack run by "forEach". A feature at the root of a store cannot dismiss \
    itself; its parent has to remove it.
    """
  )
}
