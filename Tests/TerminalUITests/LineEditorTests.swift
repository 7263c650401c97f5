import TerminalUI
import Testing

struct LineEditorTests {
  @Test func typingInsertsAtTheCursor() {
    var editor = LineEditor(cursor: 3)
    #expect(editor.apply(.character("i"), to: "Desgn") == "Design")
    #expect(editor.cursor == 4)
    #expect(editor.apply(.character("\n"), to: "Design") == nil)
  }

  @Test func pastingInsertsOneLineAtTheCursor() {
    var editor = LineEditor(cursor: 5)
    #expect(
      editor.apply(.paste("team\r\nweekly\tsync\u{1B}\u{7}"), to: "Blob  notes")
        == "Blob team weekly sync notes")
    #expect(editor.cursor == 21)
    #expect(editor.apply(.paste("\u{1B}\u{0}"), to: "Blob") == nil)
    #expect(editor.cursor == 4)
    #expect(LineEditor.handles(.paste("a")))
  }

  @Test func aPastedLineLosesItsLineBreakAndACombiningMarkJoinsItsNeighbour() {
    var editor = LineEditor(cursor: 4)
    #expect(editor.apply(.paste("Blob\n"), to: "Hi, !") == "Hi, Blob!")
    #expect(editor.cursor == 8)
    editor.cursor = 1
    #expect(editor.apply(.paste("\u{301}"), to: "eb") == "e\u{301}b")
    #expect(editor.cursor == 1)
    #expect(editor.apply(.character("x"), to: "e\u{301}b") == "e\u{301}xb")
  }

  @Test func deletingEitherSide() {
    var editor = LineEditor(cursor: 2)
    #expect(editor.apply(.backspace, to: "abc") == "ac")
    #expect(editor.cursor == 1)
    #expect(editor.apply(.delete, to: "ac") == "a")
    #expect(editor.cursor == 1)
    #expect(editor.apply(.delete, to: "a") == nil)
    editor.cursor = 0
    #expect(editor.apply(.backspace, to: "a") == nil)
  }

  @Test func movingTheCursor() {
    var editor = LineEditor()
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.apply(.right, to: "ab") == nil)
    #expect(editor.cursor == 2)
    #expect(editor.apply(.home, to: "ab") == nil)
    #expect(editor.cursor == 0)
    #expect(editor.apply(.left, to: "ab") == nil)
    #expect(editor.cursor == 0)
    #expect(editor.apply(.end, to: "ab") == nil)
    #expect(editor.cursor == 2)
  }

  @Test func deletingWordsAndLines() {
    var editor = LineEditor(cursor: 16)
    #expect(editor.apply(.control("w"), to: "Blob Jr: shipped") == "Blob Jr: ")
    #expect(editor.apply(.control("w"), to: "Blob Jr: ") == "Blob ")
    #expect(editor.apply(.control("u"), to: "Blob ") == "")
    #expect(editor.cursor == 0)
  }

  @Test func aCursorPastTheTextIsPulledBackBeforeEditing() {
    var editor = LineEditor(cursor: 40)
    #expect(editor.apply(.backspace, to: "abc") == "ab")
    #expect(editor.cursor == 2)
  }

  @Test func charactersAreGraphemeClusters() {
    var editor = LineEditor(cursor: 2)
    #expect(editor.apply(.backspace, to: "e\u{301}👨‍👩‍👧x") == "e\u{301}x")
    #expect(editor.cursor == 1)
  }

  @Test func theVisiblePartKeepsTheCursorInView() {
    let text = "abcdefghij"
    #expect(LineEditor(cursor: 0).visible(text, width: 4) == ("abcd", 0))
    #expect(LineEditor(cursor: 3).visible(text, width: 4) == ("abcd", 3))
    #expect(LineEditor(cursor: 10).visible(text, width: 4) == ("hij", 3))
    #expect(LineEditor(cursor: 6).visible(text, width: 4) == ("defg", 3))
    #expect(LineEditor(cursor: 2).visible("中文字", width: 4) == ("文字", 2))
  }
}
