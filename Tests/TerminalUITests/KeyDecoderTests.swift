import TerminalUI
import Testing

struct KeyDecoderTests {
  /// Bytes and the keys they decode to, read in one go.
  struct Example: Sendable, CustomTestStringConvertible {
    let bytes: [UInt8]
    let keys: [Key]

    init(_ bytes: [UInt8], _ keys: [Key]) {
      self.bytes = bytes
      self.keys = keys
    }

    init(_ text: String, _ keys: [Key]) {
      self.init(Array(text.utf8), keys)
    }

    var testDescription: String { bytes.map { String($0, radix: 16) }.joined(separator: " ") }
  }

  static let everyKey: [Example] = [
    Example("a", [.character("a")]),
    Example(" ", [.character(" ")]),
    Example("~", [.character("~")]),
    Example("é", [.character("é")]),
    Example("中", [.character("中")]),
    Example("😀", [.character("😀")]),
    Example("\r", [.enter]),
    Example("\n", [.enter]),
    Example("\t", [.tab]),
    Example([0x7F], [.backspace]),
    Example([0x08], [.backspace]),
    Example([0x01], [.control("a")]),
    Example([0x03], [.control("c")]),
    Example([0x1A], [.control("z")]),
    Example("\u{1B}[A", [.up]),
    Example("\u{1B}[B", [.down]),
    Example("\u{1B}[C", [.right]),
    Example("\u{1B}[D", [.left]),
    Example("\u{1B}[H", [.home]),
    Example("\u{1B}[F", [.end]),
    Example("\u{1B}[1~", [.home]),
    Example("\u{1B}[7~", [.home]),
    Example("\u{1B}[4~", [.end]),
    Example("\u{1B}[8~", [.end]),
    Example("\u{1B}[5~", [.pageUp]),
    Example("\u{1B}[6~", [.pageDown]),
    Example("\u{1B}[3~", [.delete]),
    Example("\u{1B}[Z", [.backTab]),
    Example("\u{1B}OA", [.up]),
    Example("\u{1B}OB", [.down]),
    Example("\u{1B}OC", [.right]),
    Example("\u{1B}OD", [.left]),
    Example("\u{1B}OH", [.home]),
    Example("\u{1B}OF", [.end]),
    Example("\u{1B}[1;5A", [.up]),
    Example("\u{1B}[1;2B", [.down]),
    Example("\u{1B}[1;3C", [.right]),
    Example("\u{1B}[1;5D", [.left]),
    Example("\u{1B}[3;5~", [.delete]),
    Example("\u{1B}a", [.escape, .character("a")]),
    Example("\u{1B}\r", [.escape, .enter]),
    Example("\u{1B}O\u{7F}", [.escape, .character("O"), .backspace]),
    Example("ab\u{1B}[Ac", [.character("a"), .character("b"), .up, .character("c")]),
  ]

  @Test(arguments: everyKey)
  func decodesEveryKey(_ example: Example) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(example.bytes) == example.keys)
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
  }

  @Test func everyControlLetterThatIsNotAnotherKeyIsControl() {
    let otherKeys: [UInt8: Key] = [0x08: .backspace, 0x09: .tab, 0x0A: .enter, 0x0D: .enter]
    for byte in UInt8(0x01)...0x1A {
      var decoder = KeyDecoder()
      let expected = otherKeys[byte] ?? .control(Character(Unicode.Scalar(byte + 0x60)))
      #expect(decoder.decode([byte]) == [expected], "byte \(byte)")
    }
  }

  static let splittable = everyKey.filter { $0.bytes.count > 1 }

  @Test(arguments: splittable)
  func aSequenceSplitInTwoReadsAtAnyPointDecodesTheSame(_ example: Example) {
    for split in 1..<example.bytes.count {
      var decoder = KeyDecoder()
      let keys =
        decoder.decode(example.bytes[..<split]) + decoder.decode(example.bytes[split...])
      #expect(keys == example.keys, "split at \(split)")
      #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    }
  }

  @Test(arguments: splittable.filter { $0.bytes.count > 2 })
  func aSequenceSplitInThreeReadsAtAnyPointsDecodesTheSame(_ example: Example) {
    let bytes = example.bytes
    for first in 1..<bytes.count - 1 {
      for second in first + 1..<bytes.count {
        var decoder = KeyDecoder()
        let keys =
          decoder.decode(bytes[..<first]) + decoder.decode(bytes[first..<second])
          + decoder.decode(bytes[second...])
        #expect(keys == example.keys, "split at \(first) and \(second)")
      }
    }
  }

  @Test func anIncompleteEscapeSequenceWaitsAndAnIncompleteCharacterDoesNot() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[1;".utf8) == [])
    #expect(decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.decode("5A".utf8) == [.up])

    #expect(decoder.decode([0xE4, 0xB8]) == [])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.decode([0xAD]) == [.character("中")])
  }

  @Test func aLoneEscapeWaitsUntilTheTimeoutMakesItTheEscapeKey() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.isWaitingForMoreOfAnEscapeSequence)

    #expect(decoder.escapeTimedOut() == [.escape])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.escapeTimedOut() == [])
    #expect(decoder.decode("a".utf8) == [.character("a")])
  }

  @Test func anEscapeFollowedByMoreInputBeforeTheTimeoutIsPartOfIt() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.decode("x".utf8) == [.escape, .character("x")])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
  }

  @Test func twoEscapesAreOneEscapeKeyAndOneThatWaits() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B, 0x1B]) == [.escape])
    #expect(decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.escapeTimedOut() == [.escape])
  }

  @Test func whatFollowsATimedOutEscapeIsOrdinaryInput() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[1".utf8) == [])
    #expect(decoder.escapeTimedOut() == [.escape, .character("["), .character("1")])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)

    #expect(decoder.decode("\u{1B}O".utf8) == [])
    #expect(decoder.escapeTimedOut() == [.escape, .character("O")])
  }

  @Test func unknownCompleteSequencesAreDropped() {
    var decoder = KeyDecoder()
    // NB: The last is a paste's end marker without its start.
    let functionKeys = "\u{1B}[15~\u{1B}OP\u{1B}[2~\u{1B}[201~"
    let mouseReport = "\u{1B}[<0;10;5M"
    let otherFinal = "\u{1B}[1;5x"
    #expect(
      decoder.decode((functionKeys + mouseReport + otherFinal + "k").utf8) == [.character("k")])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
  }

  @Test func aSequenceBrokenByAnotherByteIsDroppedUpToThatByte() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[1\r".utf8) == [.enter])
    #expect(decoder.decode("\u{1B}[\u{1B}[B".utf8) == [.down])
  }

  @Test func invalidUTF8IsDropped() {
    var decoder = KeyDecoder()
    let bytes: [UInt8] = [
      0xFF, 0x61,  // not UTF-8 at all
      0xC3, 0x62,  // a lead byte without its continuation
      0x80,  // a continuation without a lead byte
      0xC0, 0xAF,  // an overlong "/"
      0xED, 0xA0, 0x80,  // a surrogate
      0xF4, 0x90, 0x80, 0x80,  // past U+10FFFF
      0xC2, 0x85,  // a C1 control character
      0x00, 0x1C, 0x1F,  // control bytes that are no key
      0x63,
    ]
    #expect(decoder.decode(bytes) == [.character("a"), .character("b"), .character("c")])
    #expect(decoder.decode("d".utf8) == [.character("d")])
  }

  @Test func multiByteCharactersSplitAcrossReadsAtEveryPoint() {
    let text = "é中😀🇯🇵"
    let bytes = Array(text.utf8)
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      let keys = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
      #expect(keys == text.unicodeScalars.map { .character(Character($0)) }, "split at \(split)")
    }
  }

  @Test func aPasteIsOneKeyWhateverItHolds() {
    var decoder = KeyDecoder()
    let pasted = "d\r\u{1B}[A\u{1B}q\u{1B}[200~é\t"
    let keys = decoder.decode("a\u{1B}[200~\(pasted)\u{1B}[201~k".utf8)
    #expect(keys == [.character("a"), .paste(pasted), .character("k")])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.decode("\u{1B}[200~\u{1B}[201~".utf8) == [.paste("")])
  }

  @Test func aPasteSplitAcrossReadsAtEveryPointDecodesTheSame() {
    let bytes = Array("\u{1B}[200~ab\u{1B}[20x中\u{1B}[201~\u{1B}[A".utf8)
    let expected: [Key] = [.paste("ab\u{1B}[20x中"), .up]
    for split in 1..<bytes.count {
      var decoder = KeyDecoder()
      let keys = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
      #expect(keys == expected, "split at \(split)")
    }
    var decoder = KeyDecoder()
    #expect(bytes.flatMap { decoder.decode([$0]) } == expected)
  }

  @Test func anUnfinishedPasteWaitsForItsEndWithoutAnEscapeTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[200~abc\u{1B}".utf8) == [])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.escapeTimedOut() == [])
    #expect(decoder.decode("[201".utf8) == [])
    #expect(decoder.decode("~q".utf8) == [.paste("abc"), .character("q")])
  }

  @Test func aPasteWhoseEndNeverComesEndsWhenItsTimeoutFires() {
    var decoder = KeyDecoder()
    #expect(!decoder.isInsidePaste)
    #expect(decoder.pasteTimedOut() == [])
    #expect(decoder.decode("\u{1B}[200~abc".utf8) == [])
    #expect(decoder.isInsidePaste)
    #expect(decoder.decode("d".utf8) == [])

    #expect(decoder.pasteTimedOut() == [.paste("abcd")])
    #expect(!decoder.isInsidePaste)
    #expect(decoder.pasteTimedOut() == [])
    #expect(decoder.decode("q\u{1B}[A".utf8) == [.character("q"), .up])
  }

  @Test func aTimedOutPasteKeepsThePendingStartOfItsEndMarker() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[200~ab\u{1B}[20".utf8) == [])
    #expect(decoder.pasteTimedOut() == [.paste("ab\u{1B}[20")])
    #expect(!decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.decode("1~x".utf8) == [.character("1"), .character("~"), .character("x")])
  }

  @Test func aCompletePasteLeavesNothingForItsTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[200~a\u{1B}[201~".utf8) == [.paste("a")])
    #expect(!decoder.isInsidePaste)
    #expect(decoder.pasteTimedOut() == [])
  }

  @Test func aStartMarkerCutByTheEscapeTimeoutKeepsWaiting() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[20".utf8) == [])
    #expect(decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.escapeTimedOut() == [])
    #expect(decoder.decode("0~d\r\u{1B}[201~".utf8) == [.paste("d\r")])

    #expect(decoder.decode("\u{1B}[".utf8) == [])
    #expect(decoder.escapeTimedOut() == [.escape, .character("[")])
  }

  @Test func anEscapeRightAfterAPasteWaitsForTheTimeout() {
    var decoder = KeyDecoder()
    #expect(decoder.decode("\u{1B}[200~x\u{1B}[201~\u{1B}".utf8) == [.paste("x")])
    #expect(decoder.isWaitingForMoreOfAnEscapeSequence)
    #expect(decoder.escapeTimedOut() == [.escape])
  }

  @Test func aPasteKeepsItsFirstBytesUpToTheLimit() {
    var decoder = KeyDecoder()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
    var keys = decoder.decode("\u{1B}[200~".utf8)
    for _ in 0..<(KeyDecoder.pasteLimit / chunk.count + 2) {
      keys += decoder.decode(chunk)
    }
    keys += decoder.decode("\u{1B}[201~b".utf8)
    let typed = (KeyDecoder.pasteLimit / chunk.count + 2) * chunk.count
    #expect(
      keys == [
        .paste(String(repeating: "a", count: KeyDecoder.pasteLimit)),
        .pasteCut(droppedBytes: typed - KeyDecoder.pasteLimit), .character("b"),
      ])

    keys = decoder.decode("\u{1B}[200~short\u{1B}[201~".utf8)
    #expect(keys == [.paste("short")], "the next paste starts its count again")
  }

  @Test func aPasteThatTimesOutPastTheLimitSaysItWasCut() {
    var decoder = KeyDecoder()
    _ = decoder.decode("\u{1B}[200~".utf8)
    _ = decoder.decode([UInt8](repeating: UInt8(ascii: "a"), count: KeyDecoder.pasteLimit + 5))
    #expect(
      decoder.pasteTimedOut() == [
        .paste(String(repeating: "a", count: KeyDecoder.pasteLimit)), .pasteCut(droppedBytes: 5),
      ])
  }

  @Test func invalidUTF8InAPasteIsReplaced() {
    var decoder = KeyDecoder()
    let bytes = Array("\u{1B}[200~a".utf8) + [0xFF] + Array("b\u{1B}[201~".utf8)
    #expect(decoder.decode(bytes) == [.paste("a\u{FFFD}b")])
  }

  @Test func aByteAtATimeDecodesTheSame() {
    let bytes = Array("a\u{1B}[Aé\u{1B}[1;5C\u{1B}OH中\r".utf8)
    var decoder = KeyDecoder()
    let keys = bytes.flatMap { decoder.decode([$0]) }
    #expect(
      keys == [.character("a"), .up, .character("é"), .right, .home, .character("中"), .enter])
  }
}
