/// A cell position on a terminal screen or canvas, counted from zero at the top left.
///
/// Columns count cells, not characters: a wide character such as "中" covers two columns.
///
/// ```swift
/// let corner = Point(column: 0, row: 0)
/// ```
public struct Point: Hashable, Sendable {
  /// The column, from 0 at the left edge.
  public var column: Int
  /// The row, from 0 at the top edge.
  public var row: Int

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - column: The column, from 0 at the left edge.
  ///   - row: The row, from 0 at the top edge.
  public init(column: Int, row: Int) {
    self.column = column
    self.row = row
  }
}
