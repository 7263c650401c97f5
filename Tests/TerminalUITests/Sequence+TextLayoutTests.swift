import PropertyBased
import TerminalUI
import Testing

struct TruncationTests {
  @Test func textThatFitsIsUnchanged() {
    #expect("Design".truncated(toWidth: 6) == "Design")
    #expect("Design".truncated(toWidth: 60) == "Design")
    #expect("中文".truncated(toWidth: 4) == "中文")
    #expect("".truncated(toWidth: 3) == "")
  }

  @Test func textThatDoesNotFitEndsWithAnEllipsis() {
    #expect("Engineering".truncated(toWidth: 6) == "Engin…")
    #expect("Engineering".truncated(toWidth: 10) == "Engineeri…")
  }

  @Test func widthsZeroAndOne() {
    #expect("Design".truncated(toWidth: 0) == "")
    #expect("Design".truncated(toWidth: -3) == "")
    #expect("Design".truncated(toWidth: 1) == "…")
    #expect("D".truncated(toWidth: 1) == "D")
    #expect("中".truncated(toWidth: 1) == "…")
  }

  @Test func aWideCharacterThatDoesNotFitBeforeTheEllipsisIsLeftOut() {
    #expect("中文字".truncated(toWidth: 5) == "中文…")
    #expect("中文字".truncated(toWidth: 4) == "中…")
    #expect("中文字".truncated(toWidth: 2) == "…")
    #expect("a中文".truncated(toWidth: 3) == "a…")
  }

  @Test func graphemesAreNeverSplit() {
    #expect("👨‍👩‍👧‍👦👍🏽ok".truncated(toWidth: 3) == "👨‍👩‍👧‍👦…")
    #expect("🇯🇵🇺🇦🇫🇷".truncated(toWidth: 5) == "🇯🇵🇺🇦…")
    #expect("e\u{301}e\u{301}e\u{301}".truncated(toWidth: 2) == "e\u{301}…")
  }

  @Test func theResultIsNeverWiderThanTheWidthAndIsAPrefixOfTheText() {
    let texts = ["Engineering standup", "中文字符串", "😀😀 ok", "e\u{301}te\u{301}", "a中b文c", ""]
    for text in texts {
      for width in 1...20 {
        let result = text.truncated(toWidth: width)
        #expect(result.displayWidth <= width, "\(text) at \(width)")
        if text.displayWidth <= width {
          #expect(result == text)
        } else {
          #expect(result.hasSuffix("…"), "\(text) at \(width)")
          #expect(text.hasPrefix(result.dropLast()), "\(text) at \(width)")
        }
      }
    }
  }
}

struct WrappingTests {
  @Test func emptyTextIsOneEmptyLine() {
    #expect("".wrapped(toWidth: 10) == [""])
  }

  @Test func wordsAreWrappedGreedily() {
    #expect(
      "Daily standup for the iOS team".wrapped(toWidth: 12)
        == ["Daily", "standup for", "the iOS team"]
    )
  }

  @Test func aLineThatFitsExactlyIsNotBroken() {
    #expect("abc def".wrapped(toWidth: 7) == ["abc def"])
    #expect("abc def".wrapped(toWidth: 6) == ["abc", "def"])
    #expect("abc def".wrapped(toWidth: 3) == ["abc", "def"])
  }

  @Test func aWordLongerThanALineIsBroken() {
    #expect("abcdefghij".wrapped(toWidth: 4) == ["abcd", "efgh", "ij"])
    #expect("hi abcdefgh".wrapped(toWidth: 4) == ["hi", "abcd", "efgh"])
  }

  @Test func newlinesAreKept() {
    #expect("one\n\ntwo three".wrapped(toWidth: 5) == ["one", "", "two", "three"])
    #expect("one\r\ntwo\n".wrapped(toWidth: 10) == ["one", "two", ""])
  }

  @Test func spacesInsideALineAreKeptAndSpacesAtABreakAreDropped() {
    #expect("  indented  text".wrapped(toWidth: 20) == ["  indented  text"])
    #expect("one   two".wrapped(toWidth: 4) == ["one", "two"])
    #expect("trailing   ".wrapped(toWidth: 20) == ["trailing"])
    #expect("   ".wrapped(toWidth: 20) == [""])
  }

  @Test func wideCharactersAreMeasuredInColumns() {
    #expect("中文字符串".wrapped(toWidth: 4) == ["中文", "字符", "串"])
    #expect("中文字符串".wrapped(toWidth: 5) == ["中文", "字符", "串"])
    #expect("😀😀😀".wrapped(toWidth: 4) == ["😀😀", "😀"])
    #expect("👨‍👩‍👧‍👦 🇯🇵".wrapped(toWidth: 3) == ["👨‍👩‍👧‍👦", "🇯🇵"])
  }

  @Test func widthOne() {
    #expect("ab c".wrapped(toWidth: 1) == ["a", "b", "c"])
    #expect("a中".wrapped(toWidth: 1) == ["a", "中"])
  }

  @Test func widthZeroHasRoomForNothing() {
    #expect("Design review".wrapped(toWidth: 0) == [""])
  }

  @Test func noLineIsWiderThanTheWidthAndNoCharacterIsLost() {
    let texts = [
      "The quick brown fox jumps over the lazy dog",
      "中文字符串 and 😀 mixed\nwith lines",
      "supercalifragilisticexpialidocious",
    ]
    for text in texts {
      for width in 2...30 {
        let lines = text.wrapped(toWidth: width)
        #expect(lines.allSatisfy { $0.displayWidth <= width }, "\(text) at \(width)")
        #expect(
          lines.joined().filter { !$0.isWhitespace } == text.filter { !$0.isWhitespace },
          "\(text) at \(width)"
        )
      }
    }
  }
}

struct BoundedLayoutTests {
  /// A text as long as a book, read through a sequence that counts the characters taken from it.
  private static let book = String(repeating: "Minutes of the meeting ", count: 50_000)

  @Test func truncatingReadsOnlyWhatFitsAndOneCharacterMore() {
    let text = CountingCharacters(Self.book)
    #expect(text.truncated(toWidth: 30) == "Minutes of the meeting Minute…")
    #expect(text.count.value == 31)
  }

  @Test func wrappingToSomeLinesReadsOnlyTheirCharacters() {
    let text = CountingCharacters(Self.book)
    #expect(
      text.wrapped(toWidth: 20, maxLines: 3)
        == ["Minutes of the", "meeting Minutes of", "the meeting Minutes"])
    #expect(text.count.value <= 4 * 21)

    let word = CountingCharacters(String(repeating: "a", count: 1_000_000))
    #expect(word.wrapped(toWidth: 10, maxLines: 2) == ["aaaaaaaaaa", "aaaaaaaaaa"])
    #expect(word.count.value <= 3 * 11)
  }

  @Test func askingForNoLinesGivesNone() {
    #expect("Design".wrapped(toWidth: 10, maxLines: 0) == [])
    #expect("Design".wrapped(toWidth: 0, maxLines: 2) == [""])
  }

  /// Wrapping reads the text a character at a time and stops at the lines asked for; the plain
  /// breaker below splits the whole text into words first, as wrapping was first written. On
  /// random text, spaces, newlines, wide characters, joiners and accents included, at random
  /// widths, the lines asked for are the plain breaker's first lines.
  @Test(arguments: 0..<300)
  func agreesWithThePlainBreaker(seed: UInt64) {
    var random = Xoshiro(seed: (seed, ~seed, seed &* 31, seed ^ 0x5DEE_CE66))
    let pieces = [
      "a", "bc", "defghij", " ", "  ", "\n", "\r\n", "中", "😀", "👨\u{200D}👩", "e\u{301}",
      "🇫🇷", "\u{200B}", "klmnopqrstuvwxyz",
    ]
    let text = (0..<Int.random(in: 0..<30, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined()
    let width = Int.random(in: 0..<12, using: &random)
    let whole = plainWrapped(text, toWidth: width)
    #expect(text.wrapped(toWidth: width) == whole, "\(text.debugDescription) at \(width)")
    for maxLines in 1...whole.count + 1 {
      #expect(
        text.wrapped(toWidth: width, maxLines: maxLines) == Array(whole.prefix(maxLines)),
        "\(text.debugDescription) at \(width), \(maxLines) lines")
    }
  }
}

/// Characters of a text, counting how many were read.
private struct CountingCharacters: Sequence {
  let text: String
  let count = Counter()

  init(_ text: String) {
    self.text = text
  }

  final class Counter {
    var value = 0
  }

  func makeIterator() -> AnyIterator<Character> {
    var iterator = text.makeIterator()
    return AnyIterator { [count] in
      guard let character = iterator.next() else { return nil }
      count.value += 1
      return character
    }
  }
}

/// Greedy wrapping as plainly as it can be written: paragraphs split at newlines, words split at
/// spaces, each word measured whole. It reads the whole text, whatever is asked of it.
private func plainWrapped(_ text: String, toWidth width: Int) -> [String] {
  guard width > 0 else { return [""] }
  return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).flatMap {
    paragraph in
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    var spaces = 0
    for (index, word) in paragraph.split(separator: " ", omittingEmptySubsequences: false)
      .enumerated()
    {
      if index > 0 { spaces += 1 }
      guard !word.isEmpty else { continue }
      if lineWidth + spaces + word.displayWidth <= width {
        line += String(repeating: " ", count: spaces) + word
        lineWidth += spaces + word.displayWidth
      } else {
        if !line.isEmpty {
          lines.append(line)
          (line, lineWidth) = ("", 0)
        }
        for character in word {
          if lineWidth + character.displayWidth > width, !line.isEmpty {
            lines.append(line)
            (line, lineWidth) = ("", 0)
          }
          line.append(character)
          lineWidth += character.displayWidth
        }
      }
      spaces = 0
    }
    return lines + [line]
  }
}

struct PaddingTests {
  @Test func shortTextIsPaddedWithSpaces() {
    #expect("Design".padded(toWidth: 8) == "Design  ")
    #expect("中".padded(toWidth: 3) == "中 ")
    #expect("".padded(toWidth: 2) == "  ")
  }

  @Test func longTextIsTruncatedToTheWidth() {
    #expect("Engineering".padded(toWidth: 6) == "Engin…")
    #expect("中文字".padded(toWidth: 4) == "中… ")
    #expect("Design".padded(toWidth: 0) == "")
  }
}
