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

  @Test func otherwiseThePaletteIsUsed() {
    #expect(ColorSupport.detect(environment: [:], isTerminal: true) == .palette256)
    #expect(ColorSupport.detect(environment: ["COLORTERM": "yes"], isTerminal: true) == .palette256)
  }
}
