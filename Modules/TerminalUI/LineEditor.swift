/// A single line of text being typed, with a cursor: the editing that every text field of a
/// terminal app needs (insert, delete either side, move by character or to either end, delete
/// the word before the cursor (Ctrl-W) or everything before it (Ctrl-U)).
///
/// The text can live elsewhere (a feature's state, say): ``apply(_:to:)`` edits a given string
/// and returns the new one, and the editor only remembers where the cursor is. The cursor counts
/// characters (extended grapheme clusters), so an emoji or an accented letter is one step.
///
/// ```swift
/// var editor = LineEditor()
/// var title = "Desgn"
/// editor.cursor = 3
/// if let edited = editor.apply(.character("i"), to: title) { title = edited }  // "Design"
/// ```
public struct LineEditor: Equatable, Sendable {
  /// The position of the cursor, in characters from the start of the line.
  public var cursor: Int

  /// Creates an editor with the cursor at `cursor`.
  public init(cursor: Int = 0) {
    self.cursor = cursor
  }

  /// Whether `key` is one this editor acts on.
  public static func handles(_ key: Key) -> Bool {
    switch key {
    case .character, .backspace, .delete, .left, .right, .home, .end, .control("u"),
      .control("w"):
      return true
    default:
      return false
    }
  }

  /// Applies `key` to `text`.
  ///
  /// - Parameters:
  ///   - key: A key the user pressed.
  ///   - text: The text being edited. The cursor is first moved inside it, in case the text
  ///     changed under the editor.
  /// - Returns: The edited text when `key` changed it, or `nil` when it did not (a cursor
  ///   movement, an edit with nothing to edit, or a key the editor does not handle).
  public mutating func apply(_ key: Key, to text: String) -> String? {
    var characters = Array(text)
    cursor = min(max(cursor, 0), characters.count)
    switch key {
    case .character(let character):
      guard !character.isNewline else { return nil }
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace:
      guard cursor > 0 else { return nil }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete:
      guard cursor < characters.count else { return nil }
      characters.remove(at: cursor)
    case .control("u"):
      guard cursor > 0 else { return nil }
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("w"):
      guard cursor > 0 else { return nil }
      var start = cursor
      while start > 0, characters[start - 1].isWhitespace { start -= 1 }
      while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .left:
      cursor = max(cursor - 1, 0)
      return nil
    case .right:
      cursor = min(cursor + 1, characters.count)
      return nil
    case .home:
      cursor = 0
      return nil
    case .end:
      cursor = characters.count
      return nil
    default:
      return nil
    }
    return String(characters)
  }

  /// The part of `text` to show in `width` columns so that the cursor is visible, and the
  /// column of the cursor within it.
  ///
  /// The window starts at the beginning of the line while the cursor fits, and otherwise
  /// shows the text just before the cursor, which is what the user is typing.
  public func visible(_ text: String, width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 0 else { return ("", 0) }
    let characters = Array(text)
    let cursor = min(max(self.cursor, 0), characters.count)
    // NB: One column is kept for the cursor itself when it sits past the last character.
    var start = 0
    var widthBeforeCursor = characters[0..<cursor].reduce(0) { $0 + $1.displayWidth }
    while start < cursor, widthBeforeCursor >= width {
      widthBeforeCursor -= characters[start].displayWidth
      start += 1
    }
    var shown = ""
    var shownWidth = 0
    for character in characters[start...] {
      let characterWidth = character.displayWidth
      guard shownWidth + characterWidth <= width else { break }
      shown.append(character)
      shownWidth += characterWidth
    }
    return (shown, widthBeforeCursor)
  }
}
