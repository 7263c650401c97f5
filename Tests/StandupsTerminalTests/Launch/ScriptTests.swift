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
    #expect(throws: ScriptError(lines: [ScriptError.Line(number: 2, text: line)])) {
      try Script("enter\n\(line)\nscreen")
    }
  }

  @Test func everyLineThatIsNotACommandIsNamed() {
    let error = #expect(throws: ScriptError.self) {
      try Script("enterr\n# fine\nwait 5x  # not fine\ntype \"ok\"\npress a")
    }
    #expect(
      error?.lines == [
        ScriptError.Line(number: 1, text: "enterr"), ScriptError.Line(number: 3, text: "wait 5x"),
        ScriptError.Line(number: 5, text: "press a"),
      ])
    #expect(
      error?.description == """
        Script lines 1, 3 and 5 are not commands:
          1: enterr
          3: wait 5x
          5: press a
        """)
  }

  @Test func manyLinesThatAreNotCommandsAreCountedPastAScreenful() {
    let error = #expect(throws: ScriptError.self) {
      try Script(Array(repeating: "nonsense \u{1B}[2J", count: 25).joined(separator: "\n"))
    }
    let description = error?.description.split(separator: "\n") ?? []
    #expect(description.first == "25 script lines are not commands:")
    #expect(description.dropFirst().first == #"  1: nonsense \u{1B}[2J"#)
    #expect(description.last == "  and 5 more.")
    #expect(description.count == 22)
  }

  @Test(arguments: [
    ("enter # confirm", Script.Command.key(.enter)),
    ("q\t# quit", .key(.character("q"))),
    (#"type "Retro #1" # the title"#, .type("Retro #1")),
    (##"type "say \"#hi\"" #"##, .type(##"say "#hi""##)),
    ("wait 5s # then", .wait(.seconds(5))),
  ])
  func aCommentAfterACommandIsSkipped(line: String, command: Script.Command) throws {
    #expect(try Script(line).commands.map(\.command) == [command])
  }

  @Test(arguments: ["q#", ##"type "a"#b"##])
  func aHashThatDoesNotStartAWordIsNoComment(line: String) {
    #expect(throws: ScriptError(lines: [ScriptError.Line(number: 1, text: line)])) {
      try Script(line)
    }
  }
}
