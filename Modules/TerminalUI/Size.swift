/// A size in terminal cells.
///
/// ```swift
/// let screen = Size(width: 80, height: 24)
/// ```
public struct Size: Hashable, Sendable {
  /// The number of columns.
  public var width: Int
  /// The number of rows.
  public var height: Int

  /// Creates a size.
  ///
  /// - Parameters:
  ///   - width: The number of columns.
  ///   - height: The number of rows.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}
