/// A key press, decoded from the bytes a terminal sends by ``KeyDecoder``.
///
/// Screens map keys to their feature's actions in one table each:
///
/// ```swift
/// switch key {
/// case .up, .character("k"): .selectionMovedUp
/// case .enter: .rowTapped(selected)
/// case .control("c"), .character("q"): .quitRequested
/// default: nil
/// }
/// ```
///
/// Keys with modifiers that terminals report inconsistently (Shift, Alt, Ctrl with arrows)
/// are reported as the plain key: an Alt-modified character arrives as ``escape`` then the
/// character.
public enum Key: Hashable, Sendable {
  /// A printable character, including space and any non-ASCII character.
  case character(Character)
  /// Return or Enter (also Ctrl-M and Ctrl-J).
  case enter
  /// Escape, reported once no escape sequence follows it (see ``KeyDecoder``).
  case escape
  /// Tab (also Ctrl-I).
  case tab
  /// Shift-Tab.
  case backTab
  /// Backspace (also Ctrl-H).
  case backspace
  /// Delete (forward delete).
  case delete
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Ctrl with a letter, as the lowercase letter: Ctrl-C is `.control("c")`.
  ///
  /// Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M send the same bytes as Backspace, Tab and Enter, so
  /// they arrive as those keys instead.
  case control(Character)
  /// Text the user pasted, whole, when the terminal marks pastes (see
  /// ``TerminalCommand/enableBracketedPaste``). A screen with a text field should insert it
  /// (``LineEditor`` does), and any other should ignore it, so that pasted text never presses
  /// a screen's keys.
  case paste(String)
  /// Comes right after the ``paste(_:)`` of a paste longer than ``KeyDecoder/pasteLimit``:
  /// the paste holds its start, and the `droppedBytes` bytes after that were left out. The app
  /// should say so, so that nobody takes the cut text for all of it.
  case pasteCut(droppedBytes: Int)
}
