import Foundation
import TerminalUI
import Testing

struct ColorSupportTests {
  @Test func noColorTurnsColorsOffWhateverItsValue() {
    for value in ["1", "0", "false", "yes"] {
      let environment = ["NO_COLOR": value, "COLORTERM": "truecolor"]
      #expect(ColorSupport.detect(environment: environment, isTerminal: true) == .none, "\(value)")
    }
  }

  @Test func anEmptyNoColorIsIgnored() {
    let environment = ["NO_COLOR": "", "COLORTERM": "truecolor"]
    #expect(ColorSupport.detect(environment: environment, isTerminal: true) == .trueColor)
  }

  @Test func outputThatIsNotATerminalHasNoColors() {
    #expect(
      ColorSupport.detect(environment: ["COLORTERM": "truecolor"], isTerminal: false) == .none)
  }

  @Test func colortermTellsTrueColor() {
    for value in ["truecolor", "24bit", "TrueColor"] {
      #expect(
        ColorSupport.detect(environment: ["COLORTERM": value], isTerminal: true) == .trueColor,
        "\(value)"
      )
    }
  }

  @Test func moreThanSixteenColoursOnlyWhereTheTerminalSaysItHasThem() {
    func detect(_ term: String, terminfo: Int?) -> ColorSupport {
      ColorSupport.detect(environment: ["TERM": term], isTerminal: true) { _ in terminfo }
    }
    #expect(detect("xterm-256color", terminfo: nil) == .palette256)
    #expect(detect("screen-256color", terminfo: 8) == .palette256)
    #expect(detect("xterm-direct", terminfo: 16_777_216) == .trueColor)
    #expect(detect("alacritty", terminfo: 256) == .palette256)
    #expect(detect("xterm", terminfo: 8) == .ansi16)
    #expect(detect("linux", terminfo: 8) == .ansi16)
    #expect(detect("vt100", terminfo: -1) == .none)
    #expect(detect("something-new", terminfo: nil) == .ansi16)
  }

  @Test func terminfoIsAskedForTheNumberOfColours() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tput") else { return }
    #expect(ColorSupport.terminfoColors(term: "xterm-256color") == 256)
    #expect(ColorSupport.terminfoColors(term: "xterm") == 8)
    #expect(ColorSupport.terminfoColors(term: "no-such-terminal") == nil)
  }

  @Test func sixteenColoursAreWrittenWithTheirOwnCodes() {
    let red = Style.plain.foreground(RGB(red: 255, green: 0, blue: 0))
      .background(RGB(red: 0, green: 0, blue: 0))
    var canvas = Canvas(size: Size(width: 1, height: 1))
    canvas.text("x", at: Point(column: 0, row: 0), style: red)
    let written = frameUpdate(from: nil, to: canvas, colors: .ansi16)
    #expect(written.contains(";91;40m"), "bright red on black")
    #expect(!written.contains("38;5") && !written.contains("38;2"))
  }
}
