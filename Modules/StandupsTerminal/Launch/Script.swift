public import TerminalUI

/// A script for `standups --script`: keys, typed text, waits on a virtual clock and screen
/// dumps, one command per line. It drives the same store, views and key maps as the terminal,
/// for tests, documentation and automation.
///
/// ```text
/// # Add a standup.
/// a
/// type "Design"
/// enter
/// wait 5s
/// screen
/// ```
///
/// A key is its name (`enter`, `esc`, `tab`, `shift-tab`, `backspace`, `delete`, `up`, `down`,
/// `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `space`), `ctrl-` and a letter, or a
/// single character (`q`, `?`, `D`). `type "…"` types text (`\"` and `\\` inside the quotes),
/// letting the app settle after each key; `burst "…"` types it as fast typing arrives, every key
/// before the app settles. `wait` takes `ms`, `s`, `m` or `h` (`wait 1m30s`). `screen` prints the
/// frame, at 80×24 unless given a size (`screen 40x12`). A `#` that starts a word, outside the
/// quotes of `type` or `burst`, starts a comment to the end of the line (`enter  # save`,
/// `type "Retro #1"`); blank lines and comments are skipped.
public struct Script: Equatable, Sendable {
  /// The commands, each with its line number.
  public var commands: [Line]

  /// A command and where it is.
  public struct Line: Equatable, Sendable {
    /// The line number, from 1.
    public var number: Int
    /// The command.
    public var command: Command
  }

  /// A script command.
  public enum Command: Equatable, Sendable {
    /// Press a key.
    case key(Key)
    /// Type text, a key per character, letting the app settle after each.
    case type(String)
    /// Type text as a burst, the way fast typing or a paste the terminal does not bracket
    /// arrives: every key, then the app settles once.
    case burst(String)
    /// Let time pass on the app's clock.
    case wait(Duration)
    /// Print the frame as plain text.
    case screen(Size)
  }

  /// Parses a script; nothing runs unless every line is a command.
  ///
  /// - Throws: ``ScriptError`` naming every line that is not a command.
  public init(_ text: String) throws(ScriptError) {
    var commands: [Line] = []
    var malformed: [ScriptError.Line] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = Self.withoutComment(rawLine).trimmingCharacters(in: .whitespaces)
      guard !line.isEmpty else { continue }
      if let command = Self.command(line) {
        commands.append(Line(number: index + 1, command: command))
      } else {
        malformed.append(ScriptError.Line(number: index + 1, text: line))
      }
    }
    guard malformed.isEmpty else { throw ScriptError(lines: malformed) }
    self.commands = commands
  }

  /// The line up to its comment: a `#` at the start of a word and outside double quotes.
  private static func withoutComment(_ line: Substring) -> Substring {
    var isQuoted = false
    var isEscaped = false
    var previous: Character = " "
    for index in line.indices {
      let character = line[index]
      defer { previous = character }
      if isEscaped {
        isEscaped = false
      } else if isQuoted, character == "\\" {
        isEscaped = true
      } else if character == "\"" {
        isQuoted.toggle()
      } else if !isQuoted, character == "#", previous.isWhitespace {
        return line[..<index]
      }
    }
    return line
  }

  private static func command(_ line: String) -> Command? {
    if line.hasPrefix("type ") {
      return quoted(String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces))
        .map(Command.type)
    }
    if line.hasPrefix("burst ") {
      return quoted(String(line.dropFirst(6)).trimmingCharacters(in: .whitespaces))
        .map(Command.burst)
    }
    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    switch (words.first, words.count) {
    case ("wait", 2):
      return duration(words[1]).map(Command.wait)
    case ("screen", 1):
      return .screen(Size(width: 80, height: 24))
    case ("screen", 2):
      return size(words[1]).map(Command.screen)
    case (_, 1):
      return key(words[0]).map(Command.key)
    default:
      return nil
    }
  }

  private static let namedKeys: [String: Key] = [
    "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "tab": .tab,
    "shift-tab": .backTab, "backtab": .backTab, "backspace": .backspace, "delete": .delete,
    "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
    "pageup": .pageUp, "pagedown": .pageDown, "space": .character(" "),
  ]

  private static func key(_ word: String) -> Key? {
    if let key = namedKeys[word.lowercased()] { return key }
    if word.lowercased().hasPrefix("ctrl-"), word.count == 6, let letter = word.last,
      letter.isASCII, letter.isLetter
    {
      return .control(Character(letter.lowercased()))
    }
    return word.count == 1 ? .character(word.first!) : nil
  }

  private static func quoted(_ text: String) -> String? {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
    var result = ""
    var isEscaped = false
    for character in text.dropFirst().dropLast() {
      if isEscaped {
        guard character == "\"" || character == "\\" else { return nil }
        result.append(character)
        isEscaped = false
      } else if character == "\\" {
        isEscaped = true
      } else if character == "\"" {
        return nil
      } else {
        result.append(character)
      }
    }
    return isEscaped ? nil : result
  }

  private static func duration(_ text: String) -> Duration? {
    var total = Duration.zero
    var digits = ""
    var rest = Substring(text)
    guard !rest.isEmpty else { return nil }
    while let character = rest.first {
      if character.isASCII, character.isNumber {
        digits.append(character)
        rest = rest.dropFirst()
        continue
      }
      guard let value = Int(digits) else { return nil }
      digits = ""
      let units: [(String, Duration)] = [
        ("ms", .milliseconds(1)), ("s", .seconds(1)), ("m", .seconds(60)), ("h", .seconds(3600)),
      ]
      guard let (unit, length) = units.first(where: { rest.hasPrefix($0.0) }) else { return nil }
      total += length * value
      rest = rest.dropFirst(unit.count)
    }
    return digits.isEmpty ? total : nil
  }

  private static func size(_ text: String) -> Size? {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (1...1000).contains(width), (1...1000).contains(height)
    else { return nil }
    return Size(width: width, height: height)
  }
}

/// The lines of a script that are not commands: all of them, so that one run of the script
/// shows everything to fix.
public struct ScriptError: Error, Equatable, CustomStringConvertible {
  /// Each line that is not a command, in order.
  public var lines: [Line]

  /// A line that is not a command.
  public struct Line: Equatable, Sendable {
    /// The line number, from 1.
    public var number: Int
    /// The line, without its comment and surrounding spaces.
    public var text: String

    /// Creates the report of one line.
    public init(number: Int, text: String) {
      self.number = number
      self.text = text
    }
  }

  /// Creates the error for some lines.
  public init(lines: [Line]) {
    self.lines = lines
  }

  /// "Script line 3 is not a command: wait forever"; for several lines, a sentence that
  /// numbers them and a line for each (a screenful, then how many more).
  public var description: String {
    let entries = lines.map { "\($0.number): \(MessageText.escaped($0.text))" }
    switch lines.count {
    case 0:
      return "Every line of the script is a command."
    case 1:
      return
        "Script line \(lines[0].number) is not a command: \(MessageText.escaped(lines[0].text))"
    case ...MessageText.entriesInAScreenful:
      let numbers = lines.map { String($0.number) }
      let named = numbers.dropLast().joined(separator: ", ") + " and " + numbers[numbers.count - 1]
      return "Script lines \(named) are not commands:\n" + MessageText.screenful(entries)
    default:
      return "\(lines.count) script lines are not commands:\n" + MessageText.screenful(entries)
    }
  }
}
