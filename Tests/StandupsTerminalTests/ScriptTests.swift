import StandupsTerminal
import TerminalUI
import Testing

struct ScriptTests {
  @Test func everyKindOfLine() throws {
    let script = try Script(
      #"""
      # A comment, then a blank line

      enter
      esc
      shift-tab
      ctrl-N
      q
      ?
      space
      type "Blob said \"hi\" \\ bye"
      wait 1m30s
      wait 250ms
      screen
      screen 40x12
      """#)
    #expect(
      script.commands.map(\.command) == [
        .key(.enter), .key(.escape), .key(.backTab), .key(.control("n")), .key(.character("q")),
        .key(.character("?")), .key(.character(" ")), .type(#"Blob said "hi" \ bye"#),
        .wait(.seconds(90)), .wait(.milliseconds(250)), .screen(Size(width: 80, height: 24)),
        .screen(Size(width: 40, height: 12)),
      ])
    #expect(script.commands.first?.number == 3)
  }

  @Test(arguments: [
    "wait", "wait 5", "wait 5x", "wait s", "type Retro", #"type "unterminated"#,
    #"type "a" b""#, "ctrl-1", "enterr", "screen 0x10", "screen big", "press a",
  ])
  func aLineThatIsNotACommandIsNamed(line: String) {
    #expect(throws: ScriptError(line: 2, text: line)) {
      try Script("enter\n\(line)\nscreen")
    }
  }
}
