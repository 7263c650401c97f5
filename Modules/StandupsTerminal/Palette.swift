import Models
import TerminalUI

/// The styles the screens share, so that every screen marks a selection, a key or a problem
/// the same way.
enum Palette {
  static let title = Style.plain.bold()
  static let label = Style.plain.dim()
  static let selected = Style.plain.reversed()
  static let key = Style.plain.bold()
  static let red = RGB(red: 0xF2, green: 0x5C, blue: 0x54)
  static let problem = Style(foreground: red).bold()
  static let destructive = red
  static let done = Style.plain.dim()
  static let now = Style.plain.bold().reversed()
  static let frame = Style.plain.dim()
  static let track = Style.plain.dim()
  static let field = Style.plain.underlined()
  static let cursor = Style.plain.reversed()

  /// A block of the theme's colour, with the theme's accent for any text on it.
  static func swatch(_ theme: Theme) -> Style {
    Style(foreground: RGB(theme.accentColor), background: RGB(theme.mainColor))
  }
}

extension RGB {
  /// The terminal colour of a model colour.
  init(_ color: RGBColor) {
    self.init(red: color.red, green: color.green, blue: color.blue)
  }
}
