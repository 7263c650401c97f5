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
