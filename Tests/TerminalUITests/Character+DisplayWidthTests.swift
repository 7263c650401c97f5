import TerminalUI
import Testing

struct CharacterDisplayWidthTests {
  @Test(
    arguments: [
      ("a", 1), ("~", 1), (" ", 1), ("é", 1), ("ж", 1), ("─", 1), ("…", 1),
      ("e\u{301}", 1),  // e and a combining acute accent: one grapheme
      ("❤", 1),  // an emoji whose default presentation is text
    ] as [(Character, Int)])
  func narrowCharactersTakeOneColumn(character: Character, width: Int) {
    #expect(character.displayWidth == width)
  }

  @Test(
    arguments: [
      "中", "文", "한", "あ", "Ａ", "　",  // CJK, Hangul, kana, fullwidth letter and space
      "😀", "👍🏽",  // emoji, with a skin tone
      "👨‍👩‍👧‍👦",  // a family: four emoji joined by zero-width joiners
      "🏳️‍🌈",  // a ZWJ sequence starting with a text emoji and VS16
      "🇯🇵", "🇺🇦",  // flags
      "❤️", "1️⃣",  // text emoji and a keycap made emoji by VS16
    ] as [Character])
  func wideCharactersTakeTwoColumns(character: Character) {
    #expect(character.displayWidth == 2)
  }

  @Test(
    arguments: [
      "\u{301}",  // a combining mark with nothing to combine with
      "\u{200B}", "\u{200D}", "\u{2060}", "\u{FEFF}",  // zero-width space, joiner, word joiner, BOM
      "\u{0}", "\u{1B}", "\n", "\r\n", "\t", "\u{7F}", "\u{85}",  // control characters
    ] as [Character])
  func invisibleCharactersTakeNoColumns(character: Character) {
    #expect(character.displayWidth == 0)
  }

  @Test func aStringMeasuresTheSumOfItsCharacters() {
    #expect("Standups".displayWidth == 8)
    #expect("Hello, 世界".displayWidth == 11)
    #expect("Cafe\u{301} 👨‍👩‍👧‍👦!".displayWidth == 8)
    #expect("".displayWidth == 0)
    #expect("abc"[...].displayWidth == 3)
  }
}
