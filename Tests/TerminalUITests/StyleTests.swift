import TerminalUI
import Testing

struct StyleTests {
  @Test func plainIsTheTerminalDefault() {
    #expect(
      Style.plain
        == Style(
          foreground: nil,
          background: nil,
          isBold: false,
          isDim: false,
          isReversed: false,
          isUnderlined: false
        )
    )
  }

  @Test func modifiersChain() {
    let red = RGB(red: 255, green: 0, blue: 0)
    let blue = RGB(red: 0, green: 0, blue: 255)
    #expect(
      Style.plain.bold().dim().reversed().underlined().foreground(red).background(blue)
        == Style(
          foreground: red,
          background: blue,
          isBold: true,
          isDim: true,
          isReversed: true,
          isUnderlined: true
        )
    )
  }
}
