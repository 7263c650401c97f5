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
public struct DismissEffect: Sendable {
  enum Target: Sendable {
    /// The navigated feature at this scope; its parent installs the handler while the
    /// feature's effects run.
    case scope(NavigationIDPath)
    /// A custom dismissal, such as the root of a test store.
    case handler(@MainActor @Sendable (CodeLocation) -> Void)
  }

  let target: Target

  /// Creates a dismiss effect from the closure that performs the dismissal.
  package init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.target = .handler { _ in dismiss() }
  }

  init(target: Target) {
    self.target = target
  }

  /// Dismisses the feature that owns the running effect.
  public func callAsFunction(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    switch target {
    case .handler(let dismiss):
      await dismiss(location)
    case .scope(let scope):
      guard let dismiss = DismissHandlers.current[scope] else {
        location.reportIssue(
          """
          "dismiss()" was called outside of the effects of the feature it belongs to, so \
          there is nothing it can dismiss.

          Call it from an effect that the feature's reducer returned.
          """
        )
        return
      }
      await dismiss()
    }
  }
}

/// The dismissals available to the running effect, by navigation scope, installed by the
/// navigation operators around their children's effects.
enum DismissHandlers {
  @TaskLocal static var current: [NavigationIDPath: @Sendable () async -> Void] = [:]
}

extension DependencyValues {
  /// Dismisses the feature whose effect is running. See ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissEffectKey.self] }
    set { self[DismissEffectKey.self] = newValue }
  }
}

private enum DismissEffectKey: DependencyKey {
  static let liveValue = DismissEffect(target: .handler { reportNothingToDismiss(at: $0) })
  static let testValue = DismissEffect(target: .handler { reportNothingToDismiss(at: $0) })
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
