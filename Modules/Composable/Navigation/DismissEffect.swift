public import Dependencies

/// Lets a feature dismiss itself: pop itself off a navigation stack, or close the sheet it is
/// presented in.
///
/// Read it from the `dismiss` dependency and call it from an effect. The navigation operator
/// that runs the feature decides what dismissing means, so the feature never needs to know how
/// it was presented.
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
///
/// case .cancelButtonTapped:
///   return .run { _ in await dismiss() }
/// ```
///
/// > Important: Dismissal goes through the parent as an action, and the feature's effects are
/// > cancelled once it is gone, so code after `await dismiss()` may not run. Called where there
/// > is nothing to dismiss (in a feature at the root of a store), it reports an issue.
public struct DismissEffect: Sendable {
  let dismiss: @MainActor @Sendable (CodeLocation) -> Void

  /// Creates a dismiss effect from the closure that performs the dismissal.
  package init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = { _ in dismiss() }
  }

  init(dismissAt dismiss: @escaping @MainActor @Sendable (CodeLocation) -> Void) {
    self.dismiss = dismiss
  }

  /// Dismisses the feature that owns the running effect.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await dismiss(CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension DependencyValues {
  /// Dismisses the feature whose effect is running. See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(dismissAt: { reportNothingToDismiss(at: $0) })
  static let testValue = DismissEffect(dismissAt: { reportNothingToDismiss(at: $0) })
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
