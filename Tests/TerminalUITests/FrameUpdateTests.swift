import TerminalUI
import Testing

struct FrameUpdateTests {
  static let size = Size(width: 10, height: 3)
  static let red = RGB(red: 255, green: 0, blue: 0)

  func canvas(_ rows: [String]) -> Canvas {
    var canvas = Canvas(size: Self.size)
    for (row, text) in rows.enumerated() {
      canvas.text(text, at: Point(column: 0, row: row))
    }
    return canvas
  }

  @Test func identicalFramesWriteNothing() {
    let frame = canvas(["Standups", "", "Design"])
    #expect(frameUpdate(from: frame, to: frame, colors: .trueColor) == "")
  }

  @Test func oneChangedCellIsAMoveAndTheCell() {
    var next = Canvas(size: Self.size)
    next.text("x", at: Point(column: 4, row: 1))
    #expect(
      frameUpdate(from: Canvas(size: Self.size), to: next, colors: .trueColor)
        == "\u{1B}[2;5Hx\u{1B}[0m"
    )
  }

  @Test func aRowIsRewrittenFromItsFirstToItsLastChangedCell() {
    let update = frameUpdate(from: canvas(["abcdef"]), to: canvas(["aXcdeY"]), colors: .none)
    #expect(update == "\u{1B}[1;2HXcdeY\u{1B}[0m")
  }

  @Test func unchangedRowsAreNotWritten() {
    let update = frameUpdate(
      from: canvas(["one", "two", "three"]),
      to: canvas(["One", "two", "three!"]),
      colors: .none
    )
    #expect(update == "\u{1B}[1;1HO\u{1B}[3;6H!\u{1B}[0m")
    #expect(!update.contains("\u{1B}[2;"))
  }

  @Test func aWideCharacterIsWrittenWhole() {
    #expect(
      frameUpdate(from: canvas(["ab"]), to: canvas(["中"]), colors: .none)
        == "\u{1B}[1;1H中\u{1B}[0m"
    )
    #expect(
      frameUpdate(from: canvas(["中文"]), to: canvas(["中x"]), colors: .none)
        == "\u{1B}[1;3Hx \u{1B}[0m"
    )
    var restyled = canvas(["a中b"])
    restyled.text("中", at: Point(column: 1, row: 0), style: Style.plain.bold())
    #expect(
      frameUpdate(from: canvas(["a中b"]), to: restyled, colors: .none)
        == "\u{1B}[1;2H\u{1B}[0;1m中\u{1B}[0m"
    )
  }

  @Test func noPreviousFrameIsAFullRedraw() {
    let update = frameUpdate(from: nil, to: canvas(["Standups", "", "Design"]), colors: .none)
    #expect(
      update
        == "\u{1B}[0m\u{1B}[2J"
        + "\u{1B}[1;1HStandups  \u{1B}[2;1H          \u{1B}[3;1HDesign    "
        + "\u{1B}[0m"
    )
  }

  @Test func aSizeChangeIsAFullRedraw() {
    let previous = Canvas(size: Size(width: 12, height: 3))
    let update = frameUpdate(from: previous, to: canvas(["Standups"]), colors: .none)
    #expect(update.hasPrefix("\u{1B}[0m\u{1B}[2J"))
    for row in 1...3 {
      #expect(update.contains("\u{1B}[\(row);1H"))
    }
  }

  @Test func stylesAreWrittenOnlyWhereTheyChange() {
    let previous = Canvas(size: Self.size)
    var next = previous
    next.text("ab", at: Point(column: 0, row: 0), style: Style.plain.bold())
    next.text("cd", at: Point(column: 2, row: 0), style: Style.plain.bold())
    next.text("ef", at: Point(column: 4, row: 0))
    next.text("gh", at: Point(column: 6, row: 0), style: Style.plain.reversed().underlined())
    #expect(
      frameUpdate(from: previous, to: next, colors: .none)
        == "\u{1B}[1;1H\u{1B}[0;1mabcd\u{1B}[0mef\u{1B}[0;4;7mgh\u{1B}[0m"
    )
  }

  @Test func colorsAreWrittenAsTheTerminalSupports() {
    let previous = Canvas(size: Self.size)
    var next = previous
    next.text("x", at: Point(column: 0, row: 0), style: Style.plain.foreground(Self.red))
    next.text("y", at: Point(column: 1, row: 0), style: Style.plain.background(Self.red).bold())

    #expect(
      frameUpdate(from: previous, to: next, colors: .trueColor)
        == "\u{1B}[1;1H\u{1B}[0;38;2;255;0;0mx\u{1B}[0;1;48;2;255;0;0my\u{1B}[0m"
    )
    #expect(
      frameUpdate(from: previous, to: next, colors: .palette256)
        == "\u{1B}[1;1H\u{1B}[0;38;5;196mx\u{1B}[0;1;48;5;196my\u{1B}[0m"
    )
    let colorless = frameUpdate(from: previous, to: next, colors: .none)
    #expect(!colorless.contains("38;") && !colorless.contains("48;"))
    #expect(colorless == "\u{1B}[1;1Hx\u{1B}[0;1my\u{1B}[0m")
  }

  func lines(of canvas: Canvas) -> [String] {
    canvas.plainText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  @Test func theUpdateTurnsThePreviousFrameIntoTheNext() {
    // A frame differ is right if applying its output to what the terminal shows gives the
    // next frame: replay it on a tiny terminal model that understands what it writes.
    var previous = canvas(["Standups", "中文 text", "Design"])
    let frames = [
      canvas(["Standups", "中x text", "Design!"]),
      canvas(["", "", ""]),
      canvas(["😀 a", "b 中", "文"]),
      canvas(["😀 a", "b 中", "文"]),
    ]
    var screen = ScreenModel(size: Self.size)
    screen.apply(frameUpdate(from: nil, to: previous, colors: .none))
    #expect(screen.rows == lines(of: previous))
    for next in frames {
      screen.apply(frameUpdate(from: previous, to: next, colors: .none))
      #expect(screen.rows == lines(of: next))
      previous = next
    }
  }
}

/// Just enough of a terminal to replay colourless frame updates: cursor moves, clearing,
/// SGR (ignored) and characters, wide ones taking two columns.
private struct ScreenModel {
  var cells: [[String]]
  var row = 0
  var column = 0

  init(size: Size) {
    cells = Array(repeating: Array(repeating: " ", count: size.width), count: size.height)
  }

  var rows: [String] {
    cells.map { row in
      var line = row.joined()
      while line.last == " " {
        line.removeLast()
      }
      return line
    }
  }

  mutating func apply(_ output: String) {
    var characters = output[...]
    while let character = characters.popFirst() {
      guard character == "\u{1B}" else {
        let width = character.displayWidth
        if column + width <= cells[row].count {
          cells[row][column] = String(character)
          if width == 2 {
            cells[row][column + 1] = ""
          }
        }
        column += width
        continue
      }
      _ = characters.popFirst()  // "["
      let parameters = characters.prefix { !$0.isLetter }
      characters = characters.dropFirst(parameters.count)
      switch characters.popFirst() {
      case "H":
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        (row, column) = (numbers[0] - 1, numbers[1] - 1)
      case "J":
        for index in cells.indices {
          cells[index] = cells[index].map { _ in " " }
        }
      default:
        break
      }
    }
  }
}
