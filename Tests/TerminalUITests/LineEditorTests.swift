import PropertyBased
import TerminalUI
import Testing

struct LineEditorTests {
  @Test func typingInsertsAtTheCursor() {
    var editor = LineEditor(cursor: 3, in: "Desgn")
    #expect(editor.apply(.character("i"), to: "Desgn") == "Design")
    #expect(editor.cursor(in: "Design") == 4)
    #expect(editor.apply(.character("\n"), to: "Design") == nil)
  }

  @Test func pastingInsertsOneLineAtTheCursor() {
    var editor = LineEditor(cursor: 5, in: "Blob  notes")
    let pasted = "Blob team weekly sync notes"
    #expect(
      editor.apply(.paste("team\r\nweekly\tsync\u{1B}\u{7}"), to: "Blob  notes") == pasted)
    #expect(editor.cursor(in: pasted) == 21)
    #expect(editor.apply(.paste("\u{1B}\u{0}"), to: pasted) == nil)
    #expect(editor.cursor(in: pasted) == 21)
    #expect(LineEditor.handles(.paste("a")))
  }

  @Test func aPastedLineLosesItsLineBreakAndACombiningMarkJoinsItsNeighbour() {
    var editor = LineEditor(cursor: 4, in: "Hi, !")
    #expect(editor.apply(.paste("Blob\n"), to: "Hi, !") == "Hi, Blob!")
    #expect(editor.cursor(in: "Hi, Blob!") == 8)
    editor = LineEditor(cursor: 1, in: "eb")
    #expect(editor.apply(.paste("\u{301}"), to: "eb") == "e\u{301}b")
    #expect(editor.cursor(in: "e\u{301}b") == 1)
    #expect(editor.apply(.character("x"), to: "e\u{301}b") == "e\u{301}xb")
  }

  @Test func aLetterTypedBeforeALoneAccentJoinsItAndTheCursorGoesAfterBoth() {
    var editor = LineEditor(cursor: 0, in: "\u{301}b")
    #expect(editor.apply(.character("e"), to: "\u{301}b") == "e\u{301}b")
    #expect(editor.cursor(in: "e\u{301}b") == 1)
  }

  @Test func deletingEitherSide() {
    var editor = LineEditor(cursor: 2, in: "abc")
    #expect(editor.apply(.backspace, to: "abc") == "ac")
    #expect(editor.cursor(in: "ac") == 1)
    #expect(editor.apply(.delete, to: "ac") == "a")
    #expect(editor.cursor(in: "a") == 1)
    #expect(editor.apply(.delete, to: "a") == nil)
    editor = LineEditor(cursor: 0, in: "a")
    #expect(editor.apply(.backspace, to: "a") == nil)
  }

  @Test func movingTheCursor() {
    var editor = LineEditor(cursor: 0, in: "ab")
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.cursor(in: "ab") == 2)
    #expect(editor.apply(.home, to: "ab") == nil)
    #expect(editor.cursor(in: "ab") == 0)
    #expect(editor.apply(.left, to: "ab") == nil)
    #expect(editor.cursor(in: "ab") == 0)
    #expect(editor.apply(.end, to: "ab") == nil)
    #expect(editor.cursor(in: "ab") == 2)
  }

  @Test func deletingWordsAndLines() {
    var editor = LineEditor()
    #expect(editor.apply(.control("w"), to: "Blob Jr: shipped") == "Blob Jr: ")
    #expect(editor.apply(.control("w"), to: "Blob Jr: ") == "Blob ")
    #expect(editor.apply(.control("u"), to: "Blob ") == "")
    #expect(editor.cursor(in: "") == 0)
  }

  @Test func aTextChangedUnderTheEditorKeepsTheCursorsDistanceFromTheEnd() {
    var editor = LineEditor(cursor: 4, in: "Blob Jr")
    #expect(editor.apply(.backspace, to: "Blob Sr and Jr") == "Blob Sr an Jr")
    #expect(editor.apply(.delete, to: "r") == "")
    #expect(editor.cursor(in: "") == 0)
  }

  @Test func charactersAreGraphemeClusters() {
    let text = "e\u{301}👨‍👩‍👧x"
    var editor = LineEditor(cursor: 2, in: text)
    #expect(editor.apply(.backspace, to: text) == "e\u{301}x")
    #expect(editor.cursor(in: "e\u{301}x") == 1)
  }

  @Test func theVisiblePartKeepsTheCursorInView() {
    let text = "abcdefghij"
    #expect(LineEditor(cursor: 0, in: text).visible(text, width: 4) == ("abcd", 0))
    #expect(LineEditor(cursor: 3, in: text).visible(text, width: 4) == ("abcd", 3))
    #expect(LineEditor(cursor: 10, in: text).visible(text, width: 4) == ("hij", 3))
    #expect(LineEditor(cursor: 6, in: text).visible(text, width: 4) == ("defg", 3))
    #expect(LineEditor(cursor: 2, in: "中文字").visible("中文字", width: 4) == ("文字", 2))
  }

  /// The editor finds its cursor from the end of the line, in bytes, so that a key costs the
  /// same at any length; the plain editor below counts characters from the start. Random keys on
  /// random text, accents, joiners, flags and wide characters included, must leave both with the
  /// same text, cursor and visible part. (A lone half of a flag pairs with its neighbours
  /// anywhere in the line, so the two ways of counting differ on it; flags go in whole.)
  @Test(arguments: 0..<200)
  func agreesWithThePlainEditor(seed: UInt64) {
    var random = Xoshiro(seed: (seed, ~seed, seed &* 31, seed ^ 0x5DEE_CE66))
    let pieces: [String] = [
      "a", "b", " ", "e", "\u{301}", "👨", "\u{200D}", "👩", "中", "x ", "🇫🇷",
    ]
    let keys: [Key] = [
      .backspace, .delete, .left, .right, .home, .end, .control("u"), .control("w"),
    ]
    var text = (0..<Int.random(in: 0..<8, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
    let start = Int.random(in: 0...text.count, using: &random)
    var editor = LineEditor(cursor: start, in: text)
    var plain = PlainLineEditor(cursor: start)
    for _ in 0..<40 {
      let key: Key =
        Bool.random(using: &random)
        ? .paste(pieces.randomElement(using: &random)!)
        : keys.randomElement(using: &random)!
      let edited = editor.apply(key, to: text)
      #expect(
        edited == plain.apply(key, to: text), "seed \(seed), \(key) on \(text.debugDescription)")
      text = edited ?? text
      #expect(editor.cursor(in: text) == plain.cursor, "seed \(seed), \(key)")
      let width = Int.random(in: 1..<6, using: &random)
      #expect(editor.visible(text, width: width) == plain.visible(text, width: width))
    }
  }
}

/// A line editor as plainly as it can be written: the text as an array of characters, the
/// cursor counted from its start. Every key costs the length of the line.
private struct PlainLineEditor {
  var cursor: Int

  mutating func apply(_ key: Key, to text: String) -> String? {
    var characters = Array(text)
    cursor = min(max(cursor, 0), characters.count)
    switch key {
    case .paste(let pasted):
      let before = String(characters[..<cursor]) + pasted
      let after = String(characters[cursor...])
      cursor = before.count
      return before + after
    default:
      break
    }
    switch key {
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

  func visible(_ text: String, width: Int) -> (text: String, cursorColumn: Int) {
    let characters = Array(text)
    var start = 0
    var widthBeforeCursor = characters[0..<cursor].reduce(0) { $0 + $1.displayWidth }
    while start < cursor, widthBeforeCursor >= width {
      widthBeforeCursor -= characters[start].displayWidth
      start += 1
    }
    var shown = ""
    var shownWidth = 0
    for character in characters[start...] {
      guard shownWidth + character.displayWidth <= width else { break }
      shown.append(character)
      shownWidth += character.displayWidth
    }
    return (shown, widthBeforeCursor)
  }
}
