/// A control sequence for the terminal, other than drawing.
///
/// Naming the handful of sequences an app needs keeps raw escape codes out of the app, and
/// lets tests compare commands instead of bytes.
///
/// ```swift
/// let start = [TerminalCommand.enterAlternateScreen, .hideCursor].map(\.sequence).joined()
/// let end = [TerminalCommand.resetStyle, .showCursor, .leaveAlternateScreen]
///   .map(\.sequence).joined()
/// ```
public enum TerminalCommand: Hashable, Sendable {
  /// Switches to the alternate screen, so the shell's scrollback is back as it was on exit.
  case enterAlternateScreen
  /// Switches back from the alternate screen.
  case leaveAlternateScreen
  /// Hides the cursor while the app draws.
  case hideCursor
  /// Shows the cursor again.
  case showCursor
  /// Clears the whole screen (the cursor does not move).
  case clearScreen
  /// Moves the cursor to a cell, counted from 0 like ``Canvas`` (terminals count from 1);
  /// negative coordinates move to the first row or column.
  case moveCursor(to: Point)
  /// Resets colours and attributes to the terminal's defaults.
  case resetStyle
  /// Rings the bell, for a key that does nothing where the user expected something.
  case bell
  /// Asks the terminal to mark the text the user pastes (bracketed paste), so that a paste
  /// arrives as one ``Key/paste(_:)`` rather than as keystrokes a screen would take for its
  /// commands.
  case enableBracketedPaste
  /// Stops marking pasted text, for the shell the app hands the terminal back to.
  case disableBracketedPaste

  /// The bytes to write to the terminal (ANSI/xterm sequences).
  public var sequence: String {
    switch self {
    case .enterAlternateScreen: "\u{1B}[?1049h"
    case .leaveAlternateScreen: "\u{1B}[?1049l"
    case .hideCursor: "\u{1B}[?25l"
    case .showCursor: "\u{1B}[?25h"
    case .clearScreen: "\u{1B}[2J"
    case .moveCursor(let point): "\u{1B}[\(max(point.row, 0) + 1);\(max(point.column, 0) + 1)H"
    case .resetStyle: "\u{1B}[0m"
    case .bell: "\u{07}"
    case .enableBracketedPaste: "\u{1B}[?2004h"
    case .disableBracketedPaste: "\u{1B}[?2004l"
    }
  }
}
