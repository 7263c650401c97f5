/// One cell of a ``Canvas``: the character shown there and its style.
///
/// A wide character takes two cells: the left one holds the character and the right one holds
/// `""`, so that every column stays addressable and a frame differ can tell which half
/// changed.
///
/// ```swift
/// canvas[row: 0, column: 0]  // Cell(text: "中", style: .plain)
/// canvas[row: 0, column: 1]  // Cell(text: "", style: .plain)
/// ```
public struct Cell: Hashable, Sendable {
  /// One grapheme cluster, or `""` for the right half of a wide character.
  public var text: String
  /// How the cell looks.
  public var style: Style

  /// Creates a cell.
  ///
  /// - Parameters:
  ///   - text: One grapheme cluster, or `""` for the right half of a wide character.
  ///   - style: How the cell looks.
  public init(text: String, style: Style) {
    self.text = text
    self.style = style
  }

  /// A space in the plain style: what a new canvas is filled with.
  public static let blank = Cell(text: " ", style: .plain)

  /// Whether this is the right half of a wide character.
  var isContinuation: Bool { text.isEmpty }
}
