public import CustomDump

/// Text for alerts, dialogs and buttons that can be compared in tests and rendered by any view
/// layer.
///
/// ```swift
/// TextState("Delete standup?")
/// ```
public struct TextState: Hashable, Sendable, ExpressibleByStringLiteral {
  /// The text.
  public var string: String

  /// Creates text.
  ///
  /// - Parameter string: The text.
  public init(_ string: String) {
    self.string = string
  }

  /// Creates text from a string literal.
  ///
  /// - Parameter value: The text.
  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// Joins two texts.
  public static func + (lhs: Self, rhs: Self) -> Self {
    Self(lhs.string + rhs.string)
  }
}

extension TextState: CustomStringConvertible, CustomDumpStringConvertible {
  /// The text.
  public var description: String { string }

  /// The text, quoted.
  public var customDumpDescription: String { String(reflecting: string) }
}
