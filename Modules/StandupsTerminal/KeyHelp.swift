/// One line of a screen's key legend: the keys and what they do.
public struct KeyHelp: Equatable, Sendable {
  /// The keys, as the legend shows them (`⏎`, `^N`, `a`).
  public var keys: String
  /// What they do.
  public var action: String
  /// Whether the footer shows the entry; the others are in the full list only (`?`).
  public var isInLegend: Bool

  /// Creates a legend entry.
  public init(_ keys: String, _ action: String, isInLegend: Bool = true) {
    self.keys = keys
    self.action = action
    self.isInLegend = isInLegend
  }
}
