import TerminalUI
import Testing

struct TerminalCommandTests {
  @Test(
    arguments: [
      (.enterAlternateScreen, "\u{1B}[?1049h"),
      (.leaveAlternateScreen, "\u{1B}[?1049l"),
      (.hideCursor, "\u{1B}[?25l"),
      (.showCursor, "\u{1B}[?25h"),
      (.clearScreen, "\u{1B}[2J"),
      (.moveCursor(to: Point(column: 0, row: 0)), "\u{1B}[1;1H"),
      (.moveCursor(to: Point(column: 4, row: 2)), "\u{1B}[3;5H"),
      (.moveCursor(to: Point(column: -3, row: -1)), "\u{1B}[1;1H"),
      (.resetStyle, "\u{1B}[0m"),
      (.bell, "\u{07}"),
      (.enableBracketedPaste, "\u{1B}[?2004h"),
      (.disableBracketedPaste, "\u{1B}[?2004l"),
    ] as [(TerminalCommand, String)])
  func sequences(command: TerminalCommand, sequence: String) {
    #expect(command.sequence == sequence)
  }
}
