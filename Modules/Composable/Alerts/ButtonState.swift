/// A button of an alert or a confirmation dialog.
///
/// A button without an action only dismisses; one with an action sends it (and, because alerts
/// are ephemeral, dismisses as well).
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ```
public struct ButtonState<Action> {
  /// The action the button sends, or `nil` when it only dismisses.
  public let action: Action?

  /// The button's title.
  public let label: TextState

  /// The button's role.
  public let role: ButtonStateRole?

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - role: The button's role.
  ///   - action: The action to send, or `nil` to only dismiss.
  ///   - label: The button's title.
  public init(role: ButtonStateRole? = nil, action: Action? = nil, label: () -> TextState) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// Transforms the button's action.
  ///
  /// - Parameter transform: Turns the action into another.
  /// - Returns: The same button with the transformed action.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> ButtonState<NewAction> {
    ButtonState<NewAction>(role: role, action: action.map(transform)) { label }
  }
}

/// What a button means, for view layers that style buttons by role.
public enum ButtonStateRole: Hashable, Sendable {
  /// Backs out of the choice.
  case cancel
  /// Destroys something.
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}

/// Builds the buttons of an alert or a dialog, with `if`, `if`/`else` and `for`.
///
/// ```swift
/// actions: {
///   ButtonState(role: .cancel) { TextState("Resume") }
///   if !isLastSpeaker {
///     ButtonState(role: .destructive, action: .discard) { TextState("Discard") }
///   }
/// }
/// ```
@resultBuilder
public enum ButtonStateBuilder<Action> {
  /// The buttons of a block.
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  /// A button written in the block.
  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }

  /// The buttons of an `if` without `else`.
  public static func buildOptional(_ buttons: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    buttons ?? []
  }

  /// The buttons of the first branch.
  public static func buildEither(first buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }

  /// The buttons of the second branch.
  public static func buildEither(second buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }

  /// The buttons of a `for` loop.
  public static func buildArray(_ buttons: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    buttons.flatMap { $0 }
  }
}
