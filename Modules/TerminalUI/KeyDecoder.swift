/// Turns the bytes read from a terminal in raw mode into key presses.
///
/// A read can end anywhere: in the middle of a multi-byte UTF-8 character or of an escape
/// sequence such as `ESC [ A` (the up arrow). The decoder keeps such an incomplete end and
/// finishes it with the next read.
///
/// The Escape key sends a lone ESC byte, which is also how every escape sequence starts, so
/// only time can tell them apart. When a read ends with ESC, the decoder reports nothing and
/// ``isWaitingForMoreOfAnEscapeSequence`` becomes `true`; the caller then waits a short time
/// (its own clock, so tests need not sleep) for more bytes, and calls ``escapeTimedOut()`` if
/// none came:
///
/// ```swift
/// var decoder = KeyDecoder()
/// var keys = decoder.decode(bytesRead)
/// if decoder.isWaitingForMoreOfAnEscapeSequence, await nothingReadWithin(.milliseconds(50)) {
///   keys += decoder.escapeTimedOut()
/// }
/// ```
///
/// Recognised: printable UTF-8; CR and LF (Enter), Tab, DEL and BS (Backspace), Ctrl-letter;
/// the CSI sequences `ESC [ A/B/C/D` (arrows, also with modifiers as in `ESC [ 1 ; 5 A`),
/// `ESC [ H/F` and `ESC [ 1/7 ~`, `ESC [ 4/8 ~` (Home, End), `ESC [ 5/6 ~` (Page Up, Down),
/// `ESC [ 3 ~` (Delete), `ESC [ Z` (Shift-Tab); the SS3 sequences `ESC O A/B/C/D/H/F`.
/// Other complete sequences (function keys, mouse reports) are dropped, and so are invalid
/// UTF-8 and unused control bytes: no input makes the decoder fail. ESC followed by a byte that
/// cannot start a sequence is ``Key/escape`` followed by that byte's key (Alt-x).
///
/// Text between the bracketed-paste markers `ESC [ 200 ~` and `ESC [ 201 ~` is one
/// ``Key/paste(_:)``, whatever it contains, however many reads it takes; invalid UTF-8 in it
/// becomes U+FFFD, and a paste keeps its first ``pasteLimit`` bytes (a longer one is followed by
/// ``Key/pasteCut(droppedBytes:)``, which says how much was left out). A paste whose end marker
/// does not come ends when the caller's paste timeout fires (``pasteTimedOut()``), so that the
/// keys after it are keys again.
///
/// A read that ends inside a paste's start marker (`ESC [ 2`, `ESC [ 20`, `ESC [ 200`) keeps
/// waiting when the escape timeout fires: no hand types that fast, and taking the marker for
/// Escape and characters would press the pasted text's keys.
public struct KeyDecoder: Sendable {
  /// The most of a paste that is kept, in bytes; the rest is dropped, so that a huge paste, or
  /// a start marker whose end never comes, cannot take the memory.
  public static let pasteLimit = 64 * 1024

  /// Bytes of an incomplete escape sequence or UTF-8 character at the end of the last read,
  /// or, inside a paste, of what may be the start of its end marker.
  private var pending: [UInt8] = []
  /// The bytes of a paste whose end marker has not arrived yet; `nil` outside a paste.
  private var paste: [UInt8]?
  /// The bytes of the paste in progress, or of the last one, left out past ``pasteLimit``.
  private var droppedPasteBytes = 0

  /// Creates a decoder with nothing pending.
  public init() {}

  /// Whether the last read ended, outside a paste, with an ESC that may start an escape
  /// sequence.
  ///
  /// While `true`, the caller should start its timeout and call ``escapeTimedOut()`` when it
  /// fires, unless more bytes arrive first.
  public var isWaitingForMoreOfAnEscapeSequence: Bool {
    // NB: Inside a paste no byte is a key press, so there is no Escape key to tell apart from a
    // sequence: an ESC is text or the start of the end marker, which the next read settles.
    paste == nil && pending.first == Byte.escape
  }

  /// Whether a paste has started and its end marker has not arrived.
  ///
  /// While `true`, the caller should start a timeout longer than the escape timeout (a terminal
  /// sends a paste at once) and call ``pasteTimedOut()`` when it fires, unless more bytes arrive
  /// first: a paste whose end marker never comes would otherwise take every key after it.
  public var isInsidePaste: Bool {
    paste != nil
  }

  /// Decodes the bytes of one read, with whatever an earlier read left incomplete.
  ///
  /// - Parameter bytes: The bytes read from the terminal.
  /// - Returns: The keys completed by these bytes, in order.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    decoding: while index < pending.count {
      switch paste == nil ? token(at: index) : pastedBytes(at: index) {
      case .token(let key, let length):
        if let key {
          keys.append(key)
        }
        if case .paste = key, droppedPasteBytes > 0 {
          keys.append(.pasteCut(droppedBytes: droppedPasteBytes))
        }
        index += length
      case .pasteStart(let length):
        paste = []
        droppedPasteBytes = 0
        index += length
      case .incomplete:
        break decoding
      }
    }
    pending.removeFirst(index)
    return keys
  }

  /// Reports a pending ESC as the Escape key, because the time for a sequence to follow it
  /// has passed.
  ///
  /// Whatever was pending after the ESC (such as the `[` of Alt-[) is decoded as ordinary
  /// input. Does nothing when ``isWaitingForMoreOfAnEscapeSequence`` is `false`.
  ///
  /// - Returns: ``Key/escape`` and the keys of the bytes that followed it, or nothing.
  public mutating func escapeTimedOut() -> [Key] {
    guard isWaitingForMoreOfAnEscapeSequence, !isStartOfPasteMarker else { return [] }
    pending.removeFirst()
    return [.escape] + decode([])
  }

  /// Ends a paste whose end marker has not come in time: what it holds so far, with a pending
  /// start of an end marker, is the paste, and the bytes that follow are keys again.
  ///
  /// Does nothing when ``isInsidePaste`` is `false`.
  ///
  /// - Returns: The paste so far, or nothing.
  public mutating func pasteTimedOut() -> [Key] {
    guard isInsidePaste else { return [] }
    keepInPaste(pending[...])
    pending.removeAll()
    let text = String(decoding: paste ?? [], as: UTF8.self)
    paste = nil
    guard droppedPasteBytes > 0 else { return [.paste(text)] }
    return [.paste(text), .pasteCut(droppedBytes: droppedPasteBytes)]
  }

  /// Whether what is pending is the start of a paste's start marker, past its `ESC [`.
  private var isStartOfPasteMarker: Bool {
    pending.count > 2 && Byte.pasteStart.starts(with: pending)
  }

  /// What the bytes from an index decode to.
  private func token(at index: Int) -> Token {
    let byte = pending[index]
    switch byte {
    case Byte.escape: return escapeSequence(at: index)
    case 0x0A, 0x0D: return .token(.enter, length: 1)
    case 0x09: return .token(.tab, length: 1)
    case 0x08, 0x7F: return .token(.backspace, length: 1)
    case 0x01...0x1A: return .token(.control(Character(Unicode.Scalar(byte + 0x60))), length: 1)
    case 0x20...0x7E: return .token(.character(Character(Unicode.Scalar(byte))), length: 1)
    case 0x80...: return utf8Character(at: index)
    default: return .token(nil, length: 1)
    }
  }

  /// Inside a paste: the bytes up to the end marker join the paste, and the marker completes
  /// it. A tail that may be the start of the marker waits for the next read.
  ///
  /// NB: Only an ESC can start the marker, so the search jumps from one ESC to the next.
  private mutating func pastedBytes(at index: Int) -> Token {
    var searchStart = index
    while let escape = pending[searchStart...].firstIndex(of: Byte.escape) {
      let rest = pending[escape...]
      if rest.starts(with: Byte.pasteEnd) {
        keepInPaste(pending[index..<escape])
        let text = String(decoding: paste ?? [], as: UTF8.self)
        paste = nil
        return .token(.paste(text), length: escape + Byte.pasteEnd.count - index)
      }
      if Byte.pasteEnd.starts(with: rest) {
        guard escape > index else { return .incomplete }
        keepInPaste(pending[index..<escape])
        return .token(nil, length: escape - index)
      }
      searchStart = escape + 1
    }
    keepInPaste(pending[index...])
    return .token(nil, length: pending.count - index)
  }

  /// Adds bytes to the paste, up to ``pasteLimit``, and counts the ones left out.
  private mutating func keepInPaste(_ bytes: ArraySlice<UInt8>) {
    guard let kept = paste?.count else { return }
    let room = Self.pasteLimit - kept
    paste?.append(contentsOf: bytes.prefix(room))
    droppedPasteBytes += max(bytes.count - room, 0)
  }

  private func escapeSequence(at index: Int) -> Token {
    guard index + 1 < pending.count else { return .incomplete }
    switch pending[index + 1] {
    case UInt8(ascii: "["):
      var end = index + 2
      while end < pending.count, Byte.csiParameterOrIntermediate.contains(pending[end]) {
        end += 1
      }
      guard end < pending.count else { return .incomplete }
      guard Byte.final.contains(pending[end]) else {
        // NB: a sequence broken by a byte that cannot be in it is dropped up to that byte,
        // which is then decoded on its own.
        return .token(nil, length: end - index)
      }
      if pending[index...end].elementsEqual(Byte.pasteStart) {
        return .pasteStart(length: end + 1 - index)
      }
      let key = Self.csiKey(parameters: pending[index + 2..<end], final: pending[end])
      return .token(key, length: end + 1 - index)
    case UInt8(ascii: "O"):
      guard index + 2 < pending.count else { return .incomplete }
      guard Byte.final.contains(pending[index + 2]) else { return .token(.escape, length: 1) }
      return .token(Self.ss3Key(final: pending[index + 2]), length: 3)
    default:
      return .token(.escape, length: 1)
    }
  }

  private static func csiKey(parameters: ArraySlice<UInt8>, final: UInt8) -> Key? {
    // NB: private markers such as the `<` of mouse reports, and intermediate bytes, belong to
    // sequences that are not keys.
    guard parameters.allSatisfy({ $0 == UInt8(ascii: ";") || Byte.digit.contains($0) }) else {
      return nil
    }
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      // The first parameter names the key; a second one (modifiers) is ignored.
      let number = parameters.prefix { $0 != UInt8(ascii: ";") }.reduce(0) {
        min($0 * 10 + Int($1 - UInt8(ascii: "0")), 1_000)
      }
      switch number {
      case 1, 7: return .home
      case 3: return .delete
      case 4, 8: return .end
      case 5: return .pageUp
      case 6: return .pageDown
      default: return nil
      }
    default:
      return nil
    }
  }

  private static func ss3Key(final: UInt8) -> Key? {
    switch final {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    default: nil
    }
  }

  /// A UTF-8 encoded character; the byte ranges are those of well-formed UTF-8 (RFC 3629), so
  /// overlong forms, surrogates and values past U+10FFFF are dropped like any invalid byte.
  private func utf8Character(at index: Int) -> Token {
    let lead = pending[index]
    let length: Int
    let second: ClosedRange<UInt8>
    switch lead {
    case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
    case 0xE0: (length, second) = (3, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
    case 0xED: (length, second) = (3, 0x80...0x9F)
    case 0xF0: (length, second) = (4, 0x90...0xBF)
    case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
    case 0xF4: (length, second) = (4, 0x80...0x8F)
    default: return .token(nil, length: 1)
    }
    var value = UInt32(lead) & (0xFF >> (length + 1))
    for offset in 1..<length {
      guard index + offset < pending.count else { return .incomplete }
      let byte = pending[index + offset]
      guard (offset == 1 ? second : 0x80...0xBF).contains(byte) else {
        return .token(nil, length: offset)
      }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    // NB: C1 control characters (U+0080–U+009F) are not printable.
    guard let scalar = Unicode.Scalar(value), scalar.value >= 0xA0 else {
      return .token(nil, length: length)
    }
    return .token(.character(Character(scalar)), length: length)
  }
}

/// The outcome of decoding from one position.
private enum Token {
  /// A key (or `nil` for bytes that are dropped), and how many bytes it took.
  case token(Key?, length: Int)
  /// The start marker of a paste, and how many bytes it took.
  case pasteStart(length: Int)
  /// The bytes so far are the start of something longer: wait for the next read.
  case incomplete
}

private enum Byte {
  static let escape: UInt8 = 0x1B
  static let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
  static let csiParameterOrIntermediate: ClosedRange<UInt8> = 0x20...0x3F
  static let final: ClosedRange<UInt8> = 0x40...0x7E
  /// The sequence that starts a paste.
  static let pasteStart = Array("\u{1B}[200~".utf8)
  /// The sequence that ends a paste.
  static let pasteEnd = Array("\u{1B}[201~".utf8)
}
