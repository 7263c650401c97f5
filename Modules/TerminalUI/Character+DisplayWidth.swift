extension Character {
  /// The number of terminal columns the character takes: 0, 1 or 2.
  ///
  /// A `Character` is a whole grapheme cluster, so "e" followed by a combining accent, a
  /// flag, or a family emoji joined with zero-width joiners is measured once, as the terminal
  /// shows it:
  ///
  /// ```swift
  /// Character("a").displayWidth  // 1
  /// Character("中").displayWidth  // 2
  /// Character("👨‍👩‍👧").displayWidth  // 2
  /// Character("\u{301}").displayWidth  // 0: a combining mark on its own
  /// ```
  ///
  /// - 0 for control characters, format characters (such as the zero-width space and
  ///   joiner) and combining marks that have nothing to combine with.
  /// - 2 for East Asian Wide and Fullwidth characters, and for emoji shown as emoji: those
  ///   with emoji presentation by default (including ZWJ sequences that start with one, and
  ///   flags), and any emoji followed by the emoji variation selector U+FE0F.
  /// - 1 otherwise.
  public var displayWidth: Int {
    if let ascii = asciiValue {
      return (0x20..<0x7F).contains(ascii) ? 1 : 0
    }
    guard let first = unicodeScalars.first else { return 0 }
    switch first.properties.generalCategory {
    case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator,
      .paragraphSeparator:
      return 0
    default:
      break
    }
    let isTextPresentation = unicodeScalars.contains("\u{FE0E}")
    let isEmojiPresentation =
      (unicodeScalars.contains("\u{FE0F}") && first.properties.isEmoji)
      || (!isTextPresentation && first.properties.isEmojiPresentation)
    if isEmojiPresentation || first.isEastAsianWide {
      return 2
    }
    return 1
  }
}

extension Unicode.Scalar {
  /// Whether the scalar is East Asian Wide or Fullwidth (Unicode Annex #11) outside the
  /// emoji, which ``Character/displayWidth`` recognises by their presentation instead.
  ///
  /// NB: the blocks below are the assigned wide ranges of EastAsianWidth.txt (Unicode 16),
  /// merged where only unassigned code points lie between them; an unassigned code point in
  /// a gap measures 1.
  fileprivate var isEastAsianWide: Bool {
    switch value {
    case 0x1100...0x115F,  // Hangul Jamo initial consonants
      0x2329...0x232A,  // angle brackets
      0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols
      0x3041...0x3247,  // kana, Bopomofo, Hangul compatibility Jamo, Kanbun, enclosed CJK
      0x3250...0x4DBF,  // enclosed CJK, CJK compatibility, CJK extension A
      0x4E00...0xA4CF,  // CJK unified ideographs, Yi
      0xA960...0xA97F,  // Hangul Jamo extended A
      0xAC00...0xD7A3,  // Hangul syllables
      0xF900...0xFAFF,  // CJK compatibility ideographs
      0xFE10...0xFE19,  // vertical forms
      0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
      0xFF00...0xFF60,  // fullwidth forms
      0xFFE0...0xFFE6,  // fullwidth signs
      0x16FE0...0x18DFF,  // ideographic symbols, Tangut, Khitan
      0x1AFF0...0x1B2FF,  // kana supplement and extensions, Nushu
      0x1F200...0x1F2FF,  // enclosed ideographic supplement
      0x20000...0x2FFFD,  // CJK extensions B to F, compatibility supplement
      0x30000...0x3FFFD:  // CJK extensions G and H
      true
    default:
      false
    }
  }
}
