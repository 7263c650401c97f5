public import CustomDump
public import Foundation

/// A confirmation dialog (an action sheet) described as data: title, message and buttons.
///
/// Behaves like ``AlertState``: it clears itself as soon as any of its buttons sends an action.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share transcript")
/// } actions: {
///   ButtonState(action: .copyTranscript) { TextState("Copy") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
public struct ConfirmationDialogState<Action>: Identifiable, _EphemeralState {
  /// Whether a view layer shows the title.
  public enum Visibility: Hashable, Sendable {
    /// The view layer decides.
    case automatic
    /// The title is hidden.
    case hidden
    /// The title is shown.
    case visible
  }

  /// The identity of this dialog, distinct for every dialog created. Not part of equality.
  public let id: UUID

  /// Whether the title is shown.
  public var titleVisibility: Visibility

  /// The title.
  public var title: TextState

  /// The message under the title.
  public var message: TextState?

  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// Creates a dialog.
  ///
  /// - Parameters:
  ///   - titleVisibility: Whether the title is shown.
  ///   - title: The title.
  ///   - actions: The buttons.
  ///   - message: The message.
  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  /// Whether two dialogs have the same texts, visibility and buttons.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  /// Hashes the texts, visibility and buttons.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(titleVisibility)
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// Dumps the texts, visibility and buttons, leaving out the identity.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [
        "titleVisibility": titleVisibility,
        "title": title,
        "message": message as Any,
        "buttons": buttons,
      ],
      displayStyle: .struct
    )
  }
}
