public import CustomDump
public import Foundation

/// An alert described as data: title, message and buttons.
///
/// Hold it in ``PresentationState`` (alone or as a case of a destination enum) and run it with
/// ``Reducer/ifLet(_:action:fileID:filePath:line:column:)``. A view layer renders it and sends
/// the tapped button's action; the alert clears itself as soon as any button sends one.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Yes") }
///   ButtonState(role: .cancel) { TextState("Nevermind") }
/// } message: {
///   TextState("Are you sure you want to delete this standup?")
/// }
/// ```
///
/// Two alerts are equal when their texts and buttons are; each alert also has an identity of
/// its own, so that a new alert shown in place of another counts as a new presentation.
public struct AlertState<Action>: Identifiable, _EphemeralState {
  /// The identity of this alert, distinct for every alert created. Not part of equality.
  public let id: UUID

  /// The title.
  public var title: TextState

  /// The message under the title.
  public var message: TextState?

  /// The buttons, in order. An alert without buttons shows a default "OK" that dismisses.
  public var buttons: [ButtonState<Action>]

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - actions: The buttons.
  ///   - message: The message.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// Transforms the actions of the buttons.
  ///
  /// - Parameter transform: Turns an action into another.
  /// - Returns: The same alert with transformed actions.
  public func map<NewAction>(_ transform: (Action) -> NewAction) -> AlertState<NewAction> {
    AlertState<NewAction>(
      id: id,
      title: title,
      message: message,
      buttons: buttons.map { $0.map(transform) }
    )
  }

  private init(id: UUID, title: TextState, message: TextState?, buttons: [ButtonState<Action>]) {
    self.id = id
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

extension AlertState: Equatable where Action: Equatable {
  /// Whether two alerts have the same texts and buttons.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension AlertState: Hashable where Action: Hashable {
  /// Hashes the texts and buttons.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  /// Dumps the texts and buttons, leaving out the identity.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [
        "title": title,
        "message": message as Any,
        "buttons": buttons,
      ],
      displayStyle: .struct
    )
  }
}
