import Models
import TerminalUI

extension Standup {
  /// The title as ``Models/Standup/displayTitle`` shows it, cut with "…" to `width` columns.
  ///
  /// Every screen draws a title this way, reading no more of it than fits: a title brought in
  /// from a file can be megabytes long.
  func displayTitle(toWidth width: Int) -> String {
    // NB: A character takes a column or two (but for the rare one that takes none), so `width`
    // and one more are more than fit.
    displayTitle(maxLength: max(width, 0) + 1).truncated(toWidth: width)
  }
}
