import TerminalUI
import Testing

struct CanvasTests {
  @Test func aNewCanvasIsBlank() {
    let canvas = Canvas(size: Size(width: 3, height: 2))
    #expect(canvas.bounds == Rect(column: 0, row: 0, width: 3, height: 2))
    #expect(canvas[row: 1, column: 2] == Cell(text: " ", style: .plain))
    #expect(canvas.plainText == "\n")
  }

  @Test func aNegativeSizeIsEmpty() {
    var canvas = Canvas(size: Size(width: -4, height: 3))
    #expect(canvas.size == Size(width: 0, height: 3))
    #expect(canvas.text("abc", at: Point(column: 0, row: 0)) == 0)
  }

  @Test func cellsOutsideTheCanvasReadAsBlank() {
    let canvas = Canvas(size: Size(width: 2, height: 2))
    #expect(canvas[row: -1, column: 0] == .blank)
    #expect(canvas[row: 0, column: 2] == .blank)
  }

  @Test func textIsDrawnInItsStyleAndReportsItsWidth() {
    var canvas = Canvas(size: Size(width: 10, height: 2))
    let bold = Style.plain.bold()
    #expect(canvas.text("Hi 中", at: Point(column: 2, row: 1), style: bold) == 5)
    #expect(canvas[row: 1, column: 2] == Cell(text: "H", style: bold))
    #expect(canvas[row: 1, column: 5] == Cell(text: "中", style: bold))
    #expect(canvas[row: 1, column: 6] == Cell(text: "", style: bold))
    #expect(canvas[row: 1, column: 7] == .blank)
    #expect(canvas.plainText == "\n  Hi 中")
  }

  @Test func charactersOfNoWidthAreNotDrawn() {
    var canvas = Canvas(size: Size(width: 10, height: 1))
    #expect(canvas.text("a\nb\u{1B}c\u{200B}d", at: Point(column: 0, row: 0)) == 4)
    #expect(canvas.plainText == "abcd")
  }

  @Test func textNeverWritesOutsideItsClip() {
    var canvas = Canvas(size: Size(width: 12, height: 5))
    canvas.fill(canvas.bounds, style: .plain, with: "#")
    let inner = canvas.bounds.inset(by: 1)
    canvas.fill(inner, style: .plain)
    let tooLong = String(repeating: "abcdefghij中", count: 20)

    #expect(canvas.text(tooLong, at: inner.origin, clip: inner) == 10)
    canvas.text(tooLong, at: Point(column: -5, row: 2), clip: inner)
    canvas.text(tooLong, at: Point(column: 11, row: 3), clip: inner)
    canvas.text(tooLong, at: Point(column: 0, row: 0), clip: inner)
    canvas.text(tooLong, at: Point(column: 0, row: 4), clip: inner)

    for row in 0..<5 {
      for column in 0..<12 where !inner.contains(Point(column: column, row: row)) {
        #expect(canvas[row: row, column: column].text == "#", "row \(row), column \(column)")
      }
    }
    #expect(
      canvas.plainText == """
        ############
        #abcdefghi…#
        #ghij中abc…#
        #          #
        ############
        """
    )
  }

  @Test func theClipIsLimitedToTheCanvas() {
    var canvas = Canvas(size: Size(width: 4, height: 1))
    let clip = Rect(column: -10, row: -10, width: 100, height: 100)
    #expect(canvas.text("abcdef", at: Point(column: 0, row: 0), clip: clip) == 4)
    #expect(canvas.plainText == "abc…")
  }

  @Test func aWideCharacterStraddlingTheLeftEdgeOfTheClipIsNotDrawn() {
    var canvas = Canvas(size: Size(width: 6, height: 1))
    canvas.fill(canvas.bounds, style: .plain, with: "#")
    let clip = Rect(column: 1, row: 0, width: 4, height: 1)
    canvas.fill(clip, style: .plain)

    #expect(canvas.text("中xy", at: Point(column: 0, row: 0), clip: clip) == 2)
    #expect(canvas.plainText == "# xy #")
  }

  @Test func aWideCharacterNeverStraddlesTheRightEdgeOfTheClip() {
    var canvas = Canvas(size: Size(width: 6, height: 1))
    canvas.fill(canvas.bounds, style: .plain, with: "#")
    let clip = Rect(column: 1, row: 0, width: 4, height: 1)

    #expect(canvas.text("ab中文", at: clip.origin, clip: clip) == 3)
    #expect(canvas.plainText == "#ab…##")
    #expect(canvas.text("ab中", at: clip.origin, clip: clip) == 4)
    #expect(canvas.plainText == "#ab中#")
  }

  @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
    var canvas = Canvas(size: Size(width: 6, height: 1))
    canvas.text("中文", at: Point(column: 0, row: 0))
    canvas.text("x", at: Point(column: 1, row: 0))
    canvas.text("y", at: Point(column: 2, row: 0))
    #expect(canvas.plainText == " xy")

    canvas.text("中文", at: Point(column: 0, row: 0))
    canvas.text("字", at: Point(column: 1, row: 0))
    #expect(canvas.plainText == " 字")
    #expect(canvas[row: 0, column: 2] == Cell(text: "", style: .plain))
  }

  @Test func fillCoversTheRectangleInsideTheCanvas() {
    var canvas = Canvas(size: Size(width: 5, height: 3))
    let selected = Style.plain.reversed()
    canvas.fill(Rect(column: 3, row: 1, width: 10, height: 10), style: selected, with: "-")
    #expect(canvas.plainText == "\n   --\n   --")
    #expect(canvas[row: 2, column: 4] == Cell(text: "-", style: selected))
  }

  @Test func fillingWithAWideCharacterLeavesASpaceInAnOddColumn() {
    var canvas = Canvas(size: Size(width: 5, height: 1))
    canvas.fill(canvas.bounds, style: .plain, with: "中")
    #expect(canvas.plainText == "中中")
    #expect(canvas[row: 0, column: 4] == .blank)
  }
}
