/// How a cell looks: colours and text attributes.
///
/// Styles are values built by chaining, so a screen can keep a few named styles and derive
/// variants where it draws:
///
/// ```swift
/// let title = Style.plain.bold().foreground(RGB(red: 0x88, green: 0xC0, blue: 0xD0))
/// canvas.text("Standups", at: origin, style: title)
/// canvas.text(name, at: origin, style: isSelected ? title.reversed() : .plain)
/// ```
///
/// A `nil` colour is the terminal's own default, which is what users with a themed terminal
/// expect for ordinary text.
public struct Style: Hashable, Sendable {
  /// The text colour, or `nil` for the terminal's default.
  public var foreground: RGB?
  /// The background colour, or `nil` for the terminal's default.
  public var background: RGB?
  /// Whether the text is bold.
  public var isBold: Bool
  /// Whether the text is dimmed (faint).
  public var isDim: Bool
  /// Whether foreground and background are swapped, which shows even without colour.
  public var isReversed: Bool
  /// Whether the text is underlined.
  public var isUnderlined: Bool

  /// Creates a style.
  ///
  /// - Parameters:
  ///   - foreground: The text colour, or `nil` for the terminal's default.
  ///   - background: The background colour, or `nil` for the terminal's default.
  ///   - isBold: Whether the text is bold.
  ///   - isDim: Whether the text is dimmed.
  ///   - isReversed: Whether foreground and background are swapped.
  ///   - isUnderlined: Whether the text is underlined.
  public init(
    foreground: RGB? = nil,
    background: RGB? = nil,
    isBold: Bool = false,
    isDim: Bool = false,
    isReversed: Bool = false,
    isUnderlined: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.isBold = isBold
    self.isDim = isDim
    self.isReversed = isReversed
    self.isUnderlined = isUnderlined
  }

  /// The terminal's default colours and no attributes.
  public static let plain = Style()

  /// This style, bold.
  public func bold() -> Style {
    var style = self
    style.isBold = true
    return style
  }

  /// This style, dimmed.
  public func dim() -> Style {
    var style = self
    style.isDim = true
    return style
  }

  /// This style with foreground and background swapped.
  public func reversed() -> Style {
    var style = self
    style.isReversed = true
    return style
  }

  /// This style, underlined.
  public func underlined() -> Style {
    var style = self
    style.isUnderlined = true
    return style
  }

  /// This style with another text colour.
  ///
  /// - Parameter color: The text colour.
  public func foreground(_ color: RGB) -> Style {
    var style = self
    style.foreground = color
    return style
  }

  /// This style with another background colour.
  ///
  /// - Parameter color: The background colour.
  public func background(_ color: RGB) -> Style {
    var style = self
    style.background = color
    return style
  }
}
