import Foundation

/// The colour scheme of a standup: one of the sixteen Scrumdinger themes.
public enum Theme: String, CaseIterable, Codable, Hashable, Identifiable, Sendable {
  case bubblegum
  case buttercup
  case indigo
  case lavender
  case magenta
  case navy
  case orange
  case oxblood
  case periwinkle
  case poppy
  case purple
  case seafoam
  case sky
  case tan
  case teal
  case yellow

  /// The theme's identity: its raw value.
  public var id: String { rawValue }

  /// The theme's name as shown to people.
  public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

  /// The background colour of the standup.
  public var mainColor: RGBColor {
    switch self {
    case .bubblegum: RGBColor(red: 0xF2, green: 0x8C, blue: 0xC2)
    case .buttercup: RGBColor(red: 0xFF, green: 0xE0, blue: 0x7A)
    case .indigo: RGBColor(red: 0x3A, green: 0x1C, blue: 0x8C)
    case .lavender: RGBColor(red: 0xCD, green: 0xB8, blue: 0xF5)
    case .magenta: RGBColor(red: 0xA8, green: 0x1E, blue: 0x6E)
    case .navy: RGBColor(red: 0x14, green: 0x23, blue: 0x5C)
    case .orange: RGBColor(red: 0xF5, green: 0x8A, blue: 0x2B)
    case .oxblood: RGBColor(red: 0x6B, green: 0x12, blue: 0x16)
    case .periwinkle: RGBColor(red: 0x9C, green: 0xA7, blue: 0xF0)
    case .poppy: RGBColor(red: 0xF2, green: 0x5C, blue: 0x54)
    case .purple: RGBColor(red: 0x7A, green: 0x2F, blue: 0xB0)
    case .seafoam: RGBColor(red: 0xA6, green: 0xE3, blue: 0xCC)
    case .sky: RGBColor(red: 0x6C, green: 0xB4, blue: 0xF5)
    case .tan: RGBColor(red: 0xD6, green: 0xB8, blue: 0x8E)
    case .teal: RGBColor(red: 0x1C, green: 0x8C, blue: 0x8C)
    case .yellow: RGBColor(red: 0xFF, green: 0xD4, blue: 0x1F)
    }
  }

  /// The text colour on ``mainColor``: black or white, whichever contrasts more.
  public var accentColor: RGBColor {
    let black = RGBColor(red: 0, green: 0, blue: 0)
    let white = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    return mainColor.contrastRatio(with: black) >= mainColor.contrastRatio(with: white)
      ? black : white
  }
}

/// A colour with 8-bit red, green and blue channels, as a true-colour terminal renders it.
public struct RGBColor: Hashable, Sendable {
  /// The red channel.
  public var red: UInt8
  /// The green channel.
  public var green: UInt8
  /// The blue channel.
  public var blue: UInt8

  /// Creates a colour.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The WCAG contrast ratio between two colours, from 1 (none) to 21 (black on white).
  public func contrastRatio(with other: Self) -> Double {
    let (lighter, darker) = (
      max(relativeLuminance, other.relativeLuminance),
      min(relativeLuminance, other.relativeLuminance)
    )
    return (lighter + 0.05) / (darker + 0.05)
  }

  /// The WCAG relative luminance, from 0 (black) to 1 (white).
  public var relativeLuminance: Double {
    func linear(_ channel: UInt8) -> Double {
      let value = Double(channel) / 255
      return value <= 0.039_28 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
  }
}
