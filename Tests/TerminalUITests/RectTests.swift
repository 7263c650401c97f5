import TerminalUI
import Testing

struct RectTests {
  let rect = Rect(column: 2, row: 3, width: 10, height: 5)

  @Test func edges() {
    #expect(rect == Rect(origin: Point(column: 2, row: 3), size: Size(width: 10, height: 5)))
    #expect((rect.minColumn, rect.maxColumn, rect.minRow, rect.maxRow) == (2, 12, 3, 8))
    #expect((rect.width, rect.height) == (10, 5))
    #expect(!rect.isEmpty)
    #expect(Rect(column: 2, row: 3, width: -4, height: 5).maxColumn == 2)
    #expect(Rect(column: 2, row: 3, width: -4, height: 5).isEmpty)
  }

  @Test func containsTheCellsFromTheMinimumToBeforeTheMaximum() {
    #expect(rect.contains(Point(column: 2, row: 3)))
    #expect(rect.contains(Point(column: 11, row: 7)))
    #expect(!rect.contains(Point(column: 12, row: 7)))
    #expect(!rect.contains(Point(column: 11, row: 8)))
    #expect(!rect.contains(Point(column: 1, row: 3)))
    #expect(!Rect(column: 0, row: 0, width: 0, height: 0).contains(Point(column: 0, row: 0)))
  }

  @Test func insetNeverGivesANegativeSize() {
    #expect(rect.inset(by: 1) == Rect(column: 3, row: 4, width: 8, height: 3))
    #expect(rect.inset(by: 3) == Rect(column: 5, row: 6, width: 4, height: 0))
    #expect(rect.inset(by: 10).size == Size(width: 0, height: 0))
    #expect(rect.inset(by: -1) == Rect(column: 1, row: 2, width: 12, height: 7))
  }

  @Test func insetEachEdgeByItsOwnAmount() {
    #expect(rect.inset(left: 2, right: 1) == Rect(column: 4, row: 3, width: 7, height: 5))
    #expect(rect.inset(top: 1) == Rect(column: 2, row: 4, width: 10, height: 4))
    #expect(rect.inset(top: 1, left: 1, bottom: 1, right: 1) == rect.inset(by: 1))
    #expect(rect.inset(top: 4, bottom: 4).size == Size(width: 10, height: 0))
  }

  @Test func intersection() {
    let other = Rect(column: 8, row: 0, width: 10, height: 5)
    #expect(rect.intersection(other) == Rect(column: 8, row: 3, width: 4, height: 2))
    #expect(other.intersection(rect) == rect.intersection(other))
    #expect(rect.intersection(Rect(column: 20, row: 20, width: 3, height: 3)).isEmpty)
  }

  @Test func rowIsTheOneRowRectangleAtAnOffset() {
    #expect(rect.row(0) == Rect(column: 2, row: 3, width: 10, height: 1))
    #expect(rect.row(4) == Rect(column: 2, row: 7, width: 10, height: 1))
    #expect(rect.row(5).isEmpty)
    #expect(rect.row(-1).isEmpty)
  }

  @Test func dividedAtARowIsClamped() {
    #expect(
      rect.divided(atRow: 1) == (
        top: Rect(column: 2, row: 3, width: 10, height: 1),
        bottom: Rect(column: 2, row: 4, width: 10, height: 4)
      )
    )
    #expect(rect.divided(atRow: 9).top == rect)
    #expect(rect.divided(atRow: 9).bottom.isEmpty)
    #expect(rect.divided(atRow: -2).top.isEmpty)
    #expect(rect.divided(atRow: -2).bottom == rect)
  }

  @Test func dividedAtAColumnIsClamped() {
    #expect(
      rect.divided(atColumn: 3) == (
        left: Rect(column: 2, row: 3, width: 3, height: 5),
        right: Rect(column: 5, row: 3, width: 7, height: 5)
      )
    )
    #expect(rect.divided(atColumn: 20).left == rect)
    #expect(rect.divided(atColumn: -1).right == rect)
  }

  @Test func centered() {
    #expect(
      rect.centered(Size(width: 4, height: 3)) == Rect(column: 5, row: 4, width: 4, height: 3))
    #expect(
      rect.centered(Size(width: 5, height: 2)) == Rect(column: 4, row: 4, width: 5, height: 2))
    #expect(rect.centered(Size(width: 40, height: 40)) == rect)
    #expect(rect.centered(Size(width: -1, height: 2)).width == 0)
  }
}
