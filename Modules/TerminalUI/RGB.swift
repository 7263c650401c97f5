/// A 24-bit colour.
///
/// Views always say the exact colour they mean; how it reaches the terminal (exactly, as the
/// nearest of the 256 palette colours, or not at all) is decided once, when a frame is
/// written, from ``ColorSupport``.
///
/// ```swift
/// let accent = RGB(red: 0x5E, green: 0x81, blue: 0xAC)
/// ```
public struct RGB: Hashable, Sendable {
  /// The red component.
  public var red: UInt8
  /// The green component.
  public var green: UInt8
  /// The blue component.
  public var blue: UInt8

  /// Creates a colour from its components.
  ///
  /// - Parameters:
  ///   - red: The red component.
  ///   - green: The green component.
  ///   - blue: The blue component.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// The index of the nearest colour in the xterm 256-colour palette.
  ///
  /// Only the 6×6×6 cube (16–231) and the grey ramp (232–255) are candidates: the first 16
  /// colours are redefined by most terminal themes, so their values are unknown.
  ///
  /// ```swift
  /// RGB(red: 255, green: 0, blue: 0).palette256Index  // 196
  /// ```
  public var palette256Index: Int {
    let cube = (
      Self.nearestCubeLevel(red), Self.nearestCubeLevel(green), Self.nearestCubeLevel(blue)
    )
    let cubeColor = (Self.cubeLevels[cube.0], Self.cubeLevels[cube.1], Self.cubeLevels[cube.2])

    // NB: the ramp runs 8, 18, … 238 in steps of 10; the average grey picks its step.
    let average = (Int(red) + Int(green) + Int(blue)) / 3
    let greyStep = min(max((average - 3) / 10, 0), 23)
    let grey = 8 + 10 * greyStep

    if distanceSquared(to: (grey, grey, grey)) < distanceSquared(to: cubeColor) {
      return 232 + greyStep
    }
    return 16 + 36 * cube.0 + 6 * cube.1 + cube.2
  }

  /// The nearest of the 16 ANSI colours, by their usual (xterm) values: 0–7 black, red, green,
  /// yellow, blue, magenta, cyan and white, 8–15 their bright forms.
  ///
  /// ```swift
  /// RGB(red: 255, green: 0, blue: 0).ansi16Index  // 9
  /// ```
  public var ansi16Index: Int {
    Self.ansi16.indices.min {
      distanceSquared(to: Self.ansi16[$0]) < distanceSquared(to: Self.ansi16[$1])
    }
      ?? 7
  }

  /// The 16 ANSI colours as xterm shows them.
  private static let ansi16 = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
    (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
  ]

  /// The component values of the six levels of the palette's colour cube.
  private static let cubeLevels = [0, 95, 135, 175, 215, 255]

  /// The cube level nearest to a component value: the levels are not evenly spaced (0 then 95,
  /// then steps of 40), so the midpoints are 48 and 115, then every 40.
  private static func nearestCubeLevel(_ value: UInt8) -> Int {
    switch value {
    case 0..<48: 0
    case 48..<115: 1
    default: (Int(value) - 35) / 40
    }
  }

  private func distanceSquared(to other: (Int, Int, Int)) -> Int {
    let red = Int(red) - other.0
    let green = Int(green) - other.1
    let blue = Int(blue) - other.2
    return red * red + green * green + blue * blue
  }
}
