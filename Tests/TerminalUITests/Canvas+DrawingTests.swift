import TerminalUI
import Testing

struct BoxTests {
  @Test func aBoxWithATitle() {
    var canvas = Canvas(size: Size(width: 16, height: 4))
    canvas.box(Rect(column: 1, row: 0, width: 14, height: 4), title: "Standups")
    #expect(
      canvas.plainText == """
         ┌─ Standups ─┐
         │            │
         │            │
         └────────────┘
        """
    )
  }

  @Test func aLongTitleIsTruncated() {
    var canvas = Canvas(size: Size(width: 10, height: 2))
    canvas.box(canvas.bounds, title: "Engineering")
    #expect(canvas.plainText == "┌─ Eng… ─┐\n└────────┘")
  }

  @Test func aTitleIsLeftOutWhenThereIsNoRoom() {
    var canvas = Canvas(size: Size(width: 6, height: 2))
    canvas.box(canvas.bounds, title: "Engineering")
    #expect(canvas.plainText == "┌────┐\n└────┘")
  }

  @Test func aBoxDrawsOnlyItsBorder() {
    var canvas = Canvas(size: Size(width: 5, height: 3))
    canvas.fill(canvas.bounds, style: .plain, with: "x")
    let style = Style.plain.dim()
    canvas.box(canvas.bounds, style: style)
    #expect(canvas.plainText == "┌───┐\n│xxx│\n└───┘")
    #expect(canvas[row: 2, column: 4] == Cell(text: "┘", style: style))
  }

  @Test func aBoxTooSmallForABorderDrawsNothing() {
    var canvas = Canvas(size: Size(width: 5, height: 3))
    canvas.box(Rect(column: 0, row: 0, width: 1, height: 3))
    canvas.box(Rect(column: 0, row: 0, width: 5, height: 1))
    #expect(canvas == Canvas(size: Size(width: 5, height: 3)))
  }

  @Test func aBoxPartlyOutsideTheCanvasIsClipped() {
    var canvas = Canvas(size: Size(width: 4, height: 2))
    canvas.box(Rect(column: 1, row: 1, width: 3, height: 3))
    #expect(canvas.plainText == "\n ┌─┐")
  }
}

struct ProgressBarTests {
  static let filled = Style.plain.bold()
  static let empty = Style.plain.dim()

  func bar(_ fraction: Double, width: Int = 10) -> Canvas {
    var canvas = Canvas(size: Size(width: width, height: 2))
    canvas.progressBar(canvas.bounds, fraction: fraction, filled: Self.filled, empty: Self.empty)
    return canvas
  }

  @Test(
    arguments: [
      (0, "░░░░░░░░░░"), (0.5, "█████░░░░░"), (0.99, "█████████░"), (1, "██████████"),
      (0.05, "░░░░░░░░░░"), (0.1, "█░░░░░░░░░"),
    ] as [(Double, String)])
  func theFilledPartIsRoundedDownToWholeCells(fraction: Double, text: String) {
    #expect(bar(fraction).plainText == text + "\n")
  }

  @Test(arguments: [-1, 1.5, .infinity, -.infinity, .nan] as [Double])
  func theFractionIsClamped(fraction: Double) {
    let text = fraction > 1 ? "██████████" : "░░░░░░░░░░"
    #expect(bar(fraction).plainText == text + "\n")
  }

  @Test func eachPartHasItsStyle() {
    let canvas = bar(0.3)
    #expect(canvas[row: 0, column: 2] == Cell(text: "█", style: Self.filled))
    #expect(canvas[row: 0, column: 3] == Cell(text: "░", style: Self.empty))
  }

  @Test func aBarInAnEmptyRectangleDrawsNothing() {
    var canvas = Canvas(size: Size(width: 4, height: 1))
    canvas.progressBar(
      Rect(column: 0, row: 0, width: 4, height: 0), fraction: 1, filled: .plain, empty: .plain)
    #expect(canvas.plainText == "")
  }
}
