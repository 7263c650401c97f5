/// A single line of text being typed, with a cursor: the editing that every text field of a
/// terminal app needs (insert, delete either side, move by character or to either end, delete
/// the word before the cursor (Ctrl-W) or everything before it (Ctrl-U)), and pasting.
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
    case .character, .paste, .backspace, .delete, .left, .right, .home, .end, .control("u"),
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
  ///
  /// A paste goes in as one line: line breaks at its end are dropped, the others and tabs
  /// become spaces, and other control characters are dropped.
  public mutating func apply(_ key: Key, to text: String) -> String? {
    var characters = Array(text)
    cursor = min(max(cursor, 0), characters.count)
    switch key {
    case .character(let character):
      guard !character.isNewline else { return nil }
      return insert([character], into: characters)
    case .paste(let text):
      let pasted = Self.oneLine(text)
      guard !pasted.isEmpty else { return nil }
      return insert(pasted, into: characters)
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

  /// Inserts `inserted` at the cursor and puts the cursor after it.
  ///
  /// NB: Counted again rather than advanced by the count inserted: a combining mark or a joiner
  /// at either end merges with its neighbour into one character.
  private mutating func insert(_ inserted: [Character], into characters: [Character]) -> String {
    let before = String(characters[..<cursor]) + String(inserted)
    let after = String(characters[cursor...])
    cursor = before.count
    return before + after
  }

  /// Pasted text as it goes into a line: line breaks at its end are dropped (a copied line
  /// brings its own), the others and tabs become spaces, and other control characters (an
  /// escape, say) are dropped, so that the line holds only what can be shown.
  private static func oneLine(_ text: String) -> [Character] {
    var text = Substring(text)
    while text.last?.isNewline == true { text.removeLast() }
    return text.compactMap { character in
      if character.isNewline || character == "\t" { return " " }
      let isControl = character.unicodeScalars.contains {
        $0.properties.generalCategory == .control
      }
      return isControl ? nil : character
    }
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
