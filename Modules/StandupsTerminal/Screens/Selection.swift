import TerminalUI

extension ScreenViewState {
  /// Moves the selection for an arrow, paging or Home/End key, keeping it among `count` rows
  /// and in view in a window of `height` rows.
  ///
  /// - Returns: Whether `key` was a selection key.
  mutating func moveSelection(for key: Key, count: Int, height: Int) -> Bool {
    let last = max(count - 1, 0)
    let page = max(height - 1, 1)
    switch key {
    case .up, .character("k"): selection = max(min(selection, last) - 1, 0)
    case .down, .character("j"): selection = min(selection + 1, last)
    case .pageUp: selection = max(min(selection, last) - page, 0)
    case .pageDown: selection = min(selection + page, last)
    case .home: selection = 0
    case .end: selection = last
    default: return false
    }
    scroll = window(count: count, height: height).lowerBound
    return true
  }

  /// The selected row, kept among `count` rows (the rows may have changed since it was chosen).
  func selectedRow(count: Int) -> Int? {
    count > 0 ? min(max(selection, 0), count - 1) : nil
  }

  /// The rows shown in `height` lines: the window closest to the last scroll position that
  /// shows the selected row.
  func window(count: Int, height: Int) -> Range<Int> {
    visibleWindow(
      count: count, selected: selectedRow(count: count) ?? 0, scroll: scroll, height: height)
  }

  /// Scrolls text of `lineCount` lines shown in `height` lines, for a scrolling key.
  ///
  /// - Returns: Whether `key` was a scrolling key.
  mutating func scrollText(for key: Key, lineCount: Int, height: Int) -> Bool {
    let last = max(lineCount - height, 0)
    let page = max(height - 1, 1)
    switch key {
    case .up, .character("k"): scroll = max(min(scroll, last) - 1, 0)
    case .down, .character("j"): scroll = min(scroll + 1, last)
    case .pageUp: scroll = max(min(scroll, last) - page, 0)
    case .pageDown, .character(" "): scroll = min(scroll + page, last)
    case .home: scroll = 0
    case .end: scroll = last
    default: return false
    }
    return true
  }
}

/// The rows shown in `height` lines: the window closest to `scroll` that shows `selected`.
func visibleWindow(count: Int, selected: Int, scroll: Int, height: Int) -> Range<Int> {
  guard height > 0, count > 0 else { return 0..<0 }
  var start = min(max(scroll, 0), max(count - height, 0))
  start = min(start, selected)
  start = max(start, selected - height + 1, 0)
  return start..<min(start + height, count)
}
