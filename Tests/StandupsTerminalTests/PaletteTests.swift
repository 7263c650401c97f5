import Models
import TerminalUI
import Testing

@testable import StandupsTerminal

/// A theme stays a theme on a 16-colour terminal: its swatch keeps text and block apart.
struct PaletteTests {
  @Test(arguments: Theme.allCases)
  func aThemesTextAndBlockAreDifferentColoursOnASixteenColourTerminal(theme: Theme) {
    let swatch = Palette.swatch(theme)
    #expect(swatch.foreground != nil && swatch.background != nil)
    #expect(swatch.foreground?.ansi16Index != swatch.background?.ansi16Index, "\(theme.name)")
  }
}
