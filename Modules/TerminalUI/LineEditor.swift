/// A single line of text being typed, with a cursor: the editing that every text field of a
/// terminal app needs (insert, delete either side, move by character or to either end, delete
/// the word before the cursor (Ctrl-W) or everything before it (Ctrl-U)), and pasting.
///
/// The text can live elsewhere (a feature's state, say): ``apply(_:to:)`` edits a given string
/// and returns the new one, and the editor only remembers where the cursor is. The cursor moves
/// by characters (extended grapheme clusters), so an emoji or an accented letter is one step.
///
/// ```swift
/// var title = "Desgn"
/// var editor = LineEditor(cursor: 3, in: title)
/// if let edited = editor.apply(.character("i"), to: title) { title = edited }  // "Design"
/// ```
public struct LineEditor: Equatable, Sendable {
  /// Where the cursor is, as the number of UTF-8 bytes of the text after it: 0 is the end of
  /// the line, where typing goes.
  ///
  /// NB: Counted from the end, in bytes, so that finding the cursor costs the same however long
  /// the line is: each key typed costs the same at 20,000 characters as at 20
  /// (`Benchmarks/typing-ratio` holds the two to a ratio of work).
  private var bytesAfterCursor = 0

  /// Creates an editor with the cursor at the end of the line.
  public init() {}

  /// Creates an editor with the cursor `cursor` characters into `text`.
  public init(cursor: Int, in text: String) {
    let index =
      text.index(text.startIndex, offsetBy: max(cursor, 0), limitedBy: text.endIndex)
      ?? text.endIndex
    bytesAfterCursor = text.utf8.distance(from: index, to: text.endIndex)
  }

  /// The cursor's position in `text`, in characters from its start.
  public func cursor(in text: String) -> Int {
    text.distance(from: text.startIndex, to: cursorIndex(in: text))
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
  ///   - text: The text being edited. It may have changed under the editor: the cursor keeps
  ///     its distance from the end, within the text.
  /// - Returns: The edited text when `key` changed it, or `nil` when it did not (a cursor
  ///   movement, an edit with nothing to edit, or a key the editor does not handle).
  ///
  /// A paste goes in as one line: line breaks at its end are dropped, the others and tabs
  /// become spaces, and other control characters are dropped.
  public mutating func apply(_ key: Key, to text: String) -> String? {
    var text = text
    let cursor = cursorIndex(in: text)
    switch key {
    case .character(let character):
      guard !character.isNewline else { return nil }
      insert(String(character), at: cursor, in: &text)
    case .paste(let pasted):
      let line = Self.oneLine(pasted)
      guard !line.isEmpty else { return nil }
      insert(line, at: cursor, in: &text)
    case .backspace:
      guard cursor > text.startIndex else { return nil }
      text.removeSubrange(text.index(before: cursor)..<cursor)
    case .delete:
      guard cursor < text.endIndex else { return nil }
      let removed = text.index(after: cursor)
      bytesAfterCursor = text.utf8.distance(from: removed, to: text.endIndex)
      text.removeSubrange(cursor..<removed)
    case .control("u"):
      guard cursor > text.startIndex else { return nil }
      text.removeSubrange(..<cursor)
    case .control("w"):
      guard cursor > text.startIndex else { return nil }
      var start = cursor
      while start > text.startIndex, text[text.index(before: start)].isWhitespace {
        start = text.index(before: start)
      }
      while start > text.startIndex, !text[text.index(before: start)].isWhitespace {
        start = text.index(before: start)
      }
      text.removeSubrange(start..<cursor)
    case .left:
      if cursor > text.startIndex { moveCursor(to: text.index(before: cursor), in: text) }
      return nil
    case .right:
      if cursor < text.endIndex { moveCursor(to: text.index(after: cursor), in: text) }
      return nil
    case .home:
      bytesAfterCursor = text.utf8.count
      return nil
    case .end:
      bytesAfterCursor = 0
      return nil
    default:
      return nil
    }
    return text
  }

  /// The cursor's index in `text`, on a character boundary.
  ///
  /// NB: A text changed under the editor may put the byte count inside a character (an accent
  /// typed elsewhere joins the letter before it, say); the cursor then goes after it.
  private func cursorIndex(in text: String) -> String.Index {
    let utf8 = text.utf8
    let position = utf8.index(utf8.endIndex, offsetBy: -min(bytesAfterCursor, utf8.count))
    return position.samePosition(in: text) ?? text.index(after: position)
  }

  private mutating func moveCursor(to index: String.Index, in text: String) {
    bytesAfterCursor = text.utf8.distance(from: index, to: text.endIndex)
  }

  /// Inserts `inserted` at `cursor` and puts the cursor after it.
  ///
  /// NB: The bytes after the cursor stay the same, so the cursor follows the insertion. Should
  /// it join the character after it (a letter typed before an accent), ``cursorIndex(in:)``
  /// puts the cursor after the character they make.
  private mutating func insert(_ inserted: String, at cursor: String.Index, in text: inout String) {
    text.insert(contentsOf: inserted, at: cursor)
    bytesAfterCursor = text.utf8.distance(from: cursorIndex(in: text), to: text.endIndex)
  }

  /// Pasted text as it goes into a line: line breaks at its end are dropped (a copied line
  /// brings its own), the others and tabs become spaces, and other control characters (an
  /// escape, say) are dropped, so that the line holds only what can be shown.
  private static func oneLine(_ text: String) -> String {
    var text = Substring(text)
    while text.last?.isNewline == true { text.removeLast() }
    return String(
      text.compactMap { character in
        if character.isNewline || character == "\t" { return " " }
        let isControl = character.unicodeScalars.contains {
          $0.properties.generalCategory == .control
        }
        return isControl ? nil : character
      })
  }

  /// The part of `text` to show in `width` columns so that the cursor is visible, and the
  /// column of the cursor within it.
  ///
  /// The window starts at the beginning of the line while the cursor fits, and otherwise
  /// shows the text just before the cursor, which is what the user is typing.
  public func visible(_ text: String, width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 0 else { return ("", 0) }
    let cursor = cursorIndex(in: text)
    // NB: Walked back from the cursor, not forward from the start, so that a frame costs the
    // same however long the line is. One column is kept for the cursor itself when it sits
    // past the last character.
    var start = cursor
    var widthBeforeCursor = 0
    while start > text.startIndex {
      let previous = text.index(before: start)
      let characterWidth = text[previous].displayWidth
      guard widthBeforeCursor + characterWidth < width else { break }
      widthBeforeCursor += characterWidth
      start = previous
    }
    var shown = ""
    var shownWidth = 0
    for character in text[start...] {
      let characterWidth = character.displayWidth
      guard shownWidth + characterWidth <= width else { break }
      shown.append(character)
      shownWidth += characterWidth
    }
    return (shown, widthBeforeCursor)
  }
}
