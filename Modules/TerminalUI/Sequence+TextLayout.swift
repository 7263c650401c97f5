extension Sequence<Character> {
  /// The number of terminal columns the text takes: the sum of its characters'
  /// ``Swift/Character/displayWidth``.
  ///
  /// Layout must measure in columns, not characters: "中文" is two characters but four
  /// columns, and "e\u{301}" is two scalars but one column.
  ///
  /// ```swift
  /// "Standups".displayWidth  // 8
  /// "会议".displayWidth  // 4
  /// ```
  ///
  /// > Important: This reads the whole text. To measure text that came from a user, which can
  /// > be of any length, cut it to the room there is first, with ``truncated(toWidth:)``.
  public var displayWidth: Int {
    reduce(0) { $0 + $1.displayWidth }
  }

  /// The text cut to fit a number of columns, ending with "…" when something was cut.
  ///
  /// Cutting happens between characters (grapheme clusters), so an accent is never separated
  /// from its letter nor a flag split in half; when a wide character does not fit before the
  /// "…", the result is one column narrower than `width`.
  ///
  /// Reading stops at the first character past `width` columns, so a text costs the columns it
  /// fills, however long it is. Any sequence of characters will do: a lazy join of names, a
  /// title with its line breaks mapped to spaces.
  ///
  /// ```swift
  /// "Engineering".truncated(toWidth: 6)  // "Engin…"
  /// "中文字".truncated(toWidth: 4)  // "中…"
  /// ```
  ///
  /// - Parameter width: The number of columns available.
  /// - Returns: The text unchanged if it fits; otherwise a prefix and "…", never wider than
  ///   `width` (empty when `width` is less than 1).
  public func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    var text = ""
    // NB: The part of `text` that leaves a column for the "…", in bytes.
    var roomyPrefix = 0
    var total = 0
    for character in self {
      total += character.displayWidth
      guard total <= width else {
        return String(decoding: text.utf8.prefix(roomyPrefix), as: UTF8.self) + "…"
      }
      text.append(character)
      if total < width {
        roomyPrefix = text.utf8.count
      }
    }
    return text
  }

  /// The text broken into lines that fit a number of columns, breaking at spaces.
  ///
  /// Each newline in the text starts a new line, so paragraphs and blank lines survive. A word
  /// longer than a line is broken between characters. Spaces where a line is broken are
  /// dropped; spaces inside a line, including indentation at the start of a paragraph, are
  /// kept.
  ///
  /// ```swift
  /// "Daily standup for the iOS team".wrapped(toWidth: 12)
  /// // ["Daily", "standup for", "the iOS team"]
  /// ```
  ///
  /// > Important: A line is never wider than `width`, except when a single character is wider
  /// > (a wide character at width 1): it gets a line of its own rather than being lost.
  ///
  /// - Parameter width: The number of columns available.
  /// - Returns: The lines, at least one (`[""]` for empty text, or when `width` is less than 1
  ///   and nothing fits).
  public func wrapped(toWidth width: Int) -> [String] {
    wrapped(toWidth: width, maxLines: .max)
  }

  /// The first lines of ``wrapped(toWidth:)``, no more than `maxLines`, read from no further
  /// into the text than they reach.
  ///
  /// This is how to lay out text that came from a user, which can be of any length: a view that
  /// has room for `rows` rows asks for `rows + 1` lines, and knows from the count whether the
  /// text goes on past what it shows.
  ///
  /// ```swift
  /// let lines = message.wrapped(toWidth: 30, maxLines: rows + 1)
  /// let isCut = lines.count > rows
  /// ```
  ///
  /// - Parameters:
  ///   - width: The number of columns available.
  ///   - maxLines: The most lines wanted.
  /// - Returns: The lines, as many as ``wrapped(toWidth:)`` gives up to `maxLines` (none when
  ///   `maxLines` is less than 1).
  public func wrapped(toWidth width: Int, maxLines: Int) -> [String] {
    guard maxLines > 0 else { return [] }
    guard width > 0 else { return [""] }
    var breaker = LineBreaker(width: width, maxLines: maxLines)
    for character in self {
      breaker.read(character)
      if breaker.isFull { break }
    }
    return breaker.finish()
  }

  /// The text made exactly a number of columns wide: padded with spaces, or truncated with
  /// "…" (and then padded, if a wide character left a column over).
  ///
  /// Used for table columns and for lines that must overwrite everything behind them.
  ///
  /// ```swift
  /// "Design".padded(toWidth: 8)  // "Design  "
  /// ```
  ///
  /// - Parameter width: The number of columns.
  /// - Returns: Text exactly `width` columns wide (empty when `width` is less than 1).
  public func padded(toWidth width: Int) -> String {
    let fitted = truncated(toWidth: width)
    return fitted + String(repeating: " ", count: Swift.max(width - fitted.displayWidth, 0))
  }
}

/// Greedy word wrapping, read one character at a time, that stops once it has the lines asked
/// for.
///
/// A word goes on the line, after the spaces before it, when it fits there; otherwise it starts
/// a new line, and one longer than a line is broken between characters. A newline ends the line.
///
/// NB: A word is measured only until it overflows its line, never to its end, and each line is
/// final once the next begins: so the lines asked for cost what they hold, even when the text is
/// one word as long as a book.
private struct LineBreaker {
  let width: Int
  let maxLines: Int
  private var lines: [String] = []
  private var line = ""
  private var lineWidth = 0
  /// The spaces read since the last word: they go before the next word if it fits.
  private var spaces = 0
  /// The word being read, while it still fits on the line.
  private var word = ""
  private var wordWidth = 0
  /// Whether the word being read did not fit on its line, and goes on a character at a time.
  private var isBreakingWord = false

  init(width: Int, maxLines: Int) {
    self.width = width
    self.maxLines = maxLines
  }

  /// Whether the lines asked for are all there.
  var isFull: Bool { lines.count >= maxLines }

  mutating func read(_ character: Character) {
    if character.isNewline {
      endWord()
      spaces = 0
      endLine()
    } else if character == " " {
      endWord()
      spaces += 1
    } else if isBreakingWord {
      put(character)
    } else {
      word.append(character)
      wordWidth += character.displayWidth
      if lineWidth + spaces + wordWidth > width {
        breakWord()
      }
    }
  }

  /// The lines: those read so far, and the one in progress while there is room for it.
  consuming func finish() -> [String] {
    if !isFull {
      endWord()
      endLine()
    }
    return lines
  }

  /// Puts the word just read on the line; it fits, or it would be going on a character at a time.
  private mutating func endWord() {
    if isBreakingWord {
      isBreakingWord = false
    } else if !word.isEmpty {
      line += String(repeating: " ", count: spaces) + word
      lineWidth += spaces + wordWidth
      word = ""
      wordWidth = 0
    } else {
      return
    }
    spaces = 0
  }

  /// Starts a new line for a word that does not fit on this one (the spaces before it dropped),
  /// and goes on with it a character at a time.
  private mutating func breakWord() {
    isBreakingWord = true
    spaces = 0
    if !line.isEmpty {
      endLine()
    }
    let pending = word
    word = ""
    wordWidth = 0
    for character in pending where !isFull {
      put(character)
    }
  }

  /// Adds a character of a word too long for its line, starting a new line when it does not fit.
  private mutating func put(_ character: Character) {
    let characterWidth = character.displayWidth
    if lineWidth + characterWidth > width, !line.isEmpty {
      endLine()
      guard !isFull else { return }
    }
    line.append(character)
    lineWidth += characterWidth
  }

  private mutating func endLine() {
    lines.append(line)
    line = ""
    lineWidth = 0
  }
}
