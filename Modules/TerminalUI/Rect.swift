/// A rectangle of terminal cells: the region a view draws in.
///
/// Screens carve the canvas into regions with these operations rather than computing
/// columns by hand, and every operation keeps the result inside the rectangle it started
/// from, so a layout can never produce a negative size:
///
/// ```swift
/// let content = canvas.bounds.inset(by: 1)
/// let (header, body) = content.divided(atRow: 1)
/// let dialog = canvas.bounds.centered(Size(width: 40, height: 7))
/// ```
///
/// A rectangle with a zero (or negative) width or height is empty: it contains no point, and
/// drawing clipped to it draws nothing.
public struct Rect: Hashable, Sendable {
  /// The top left cell.
  public var origin: Point
  /// The number of columns and rows.
  public var size: Size

  /// Creates a rectangle from its top left cell and size.
  ///
  /// - Parameters:
  ///   - origin: The top left cell.
  ///   - size: The number of columns and rows.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its top left cell and size.
  ///
  /// - Parameters:
  ///   - column: The leftmost column.
  ///   - row: The top row.
  ///   - width: The number of columns.
  ///   - height: The number of rows.
  public init(column: Int, row: Int, width: Int, height: Int) {
    self.init(origin: Point(column: column, row: row), size: Size(width: width, height: height))
  }

  /// The number of columns.
  public var width: Int { size.width }

  /// The number of rows.
  public var height: Int { size.height }

  /// The leftmost column.
  public var minColumn: Int { origin.column }

  /// The column just past the right edge: `minColumn + width`, and never less than
  /// `minColumn`.
  public var maxColumn: Int { origin.column + max(size.width, 0) }

  /// The top row.
  public var minRow: Int { origin.row }

  /// The row just below the bottom edge: `minRow + height`, and never less than `minRow`.
  public var maxRow: Int { origin.row + max(size.height, 0) }

  /// Whether the rectangle has no cells.
  public var isEmpty: Bool { size.width <= 0 || size.height <= 0 }

  /// Whether the cell at a point is inside the rectangle.
  ///
  /// - Parameter point: A cell position.
  /// - Returns: `true` if the cell is inside.
  public func contains(_ point: Point) -> Bool {
    (minColumn..<maxColumn).contains(point.column) && (minRow..<maxRow).contains(point.row)
  }

  /// The rectangle with every edge moved inwards, as used for the content of a box.
  ///
  /// Insetting by more than half the size gives an empty rectangle rather than a negative
  /// size, so nested layouts degrade to drawing nothing when the terminal is tiny.
  ///
  /// ```swift
  /// canvas.box(panel)
  /// let content = panel.inset(by: 1)
  /// ```
  ///
  /// - Parameter amount: How many cells each edge moves in; a negative amount moves them out.
  /// - Returns: The inset rectangle.
  public func inset(by amount: Int) -> Rect {
    Rect(
      column: minColumn + amount,
      row: minRow + amount,
      width: max(size.width - 2 * amount, 0),
      height: max(size.height - 2 * amount, 0)
    )
  }

  /// The rectangle with each edge moved in by its own amount: room for a border on some sides,
  /// a margin on others.
  ///
  /// Like ``inset(by:)``, the size never goes below zero.
  ///
  /// ```swift
  /// let body = row.inset(left: 2, right: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - top: How many rows the top edge moves down.
  ///   - left: How many columns the left edge moves right.
  ///   - bottom: How many rows the bottom edge moves up.
  ///   - right: How many columns the right edge moves left.
  /// - Returns: The inset rectangle.
  public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
    Rect(
      column: minColumn + left,
      row: minRow + top,
      width: max(size.width - left - right, 0),
      height: max(size.height - top - bottom, 0)
    )
  }

  /// The cells that are in both rectangles; empty if they do not overlap.
  ///
  /// - Parameter other: Another rectangle.
  /// - Returns: The overlap.
  public func intersection(_ other: Rect) -> Rect {
    let column = max(minColumn, other.minColumn)
    let row = max(minRow, other.minRow)
    return Rect(
      column: column,
      row: row,
      width: max(min(maxColumn, other.maxColumn) - column, 0),
      height: max(min(maxRow, other.maxRow) - row, 0)
    )
  }

  /// The one-row rectangle at an offset from the top, as wide as this one.
  ///
  /// A row outside the rectangle is empty, so a list that draws more rows than fit simply
  /// stops showing them:
  ///
  /// ```swift
  /// for (offset, name) in names.enumerated() {
  ///   let line = list.row(offset)
  ///   canvas.text(name, at: line.origin, clip: line)
  /// }
  /// ```
  ///
  /// - Parameter offset: The row, from 0 at the top of this rectangle.
  /// - Returns: The row's rectangle, empty if `offset` is not in `0..<height`.
  public func row(_ offset: Int) -> Rect {
    let isInside = (0..<max(size.height, 0)).contains(offset)
    return Rect(
      column: minColumn, row: minRow + offset, width: size.width, height: isInside ? 1 : 0)
  }

  /// Splits the rectangle into the rows above an offset and the rows from it down.
  ///
  /// The offset is clamped to `0...height`, so one of the parts is empty when the offset is
  /// out of range.
  ///
  /// ```swift
  /// let (list, footer) = canvas.bounds.divided(atRow: canvas.size.height - 1)
  /// ```
  ///
  /// - Parameter offset: The number of rows in the top part.
  /// - Returns: The top and bottom parts, each as wide as this rectangle.
  public func divided(atRow offset: Int) -> (top: Rect, bottom: Rect) {
    let height = max(size.height, 0)
    let split = min(max(offset, 0), height)
    return (
      top: Rect(column: minColumn, row: minRow, width: size.width, height: split),
      bottom: Rect(
        column: minColumn, row: minRow + split, width: size.width, height: height - split)
    )
  }

  /// Splits the rectangle into the columns left of an offset and the columns from it on.
  ///
  /// The offset is clamped to `0...width`, so one of the parts is empty when the offset is
  /// out of range.
  ///
  /// ```swift
  /// let (sidebar, detail) = content.divided(atColumn: 24)
  /// ```
  ///
  /// - Parameter offset: The number of columns in the left part.
  /// - Returns: The left and right parts, each as tall as this rectangle.
  public func divided(atColumn offset: Int) -> (left: Rect, right: Rect) {
    let width = max(size.width, 0)
    let split = min(max(offset, 0), width)
    return (
      left: Rect(column: minColumn, row: minRow, width: split, height: size.height),
      right: Rect(column: minColumn + split, row: minRow, width: width - split, height: size.height)
    )
  }

  /// A rectangle of a size centred in this one, shrunk to fit if it is larger.
  ///
  /// When the space left over is odd, the extra column or row goes to the right or bottom.
  ///
  /// ```swift
  /// let alert = canvas.bounds.centered(Size(width: 50, height: 8))
  /// ```
  ///
  /// - Parameter size: The wanted size.
  /// - Returns: The centred rectangle.
  public func centered(_ size: Size) -> Rect {
    let width = min(max(size.width, 0), max(self.size.width, 0))
    let height = min(max(size.height, 0), max(self.size.height, 0))
    return Rect(
      column: minColumn + (max(self.size.width, 0) - width) / 2,
      row: minRow + (max(self.size.height, 0) - height) / 2,
      width: width,
      height: height
    )
  }
}
