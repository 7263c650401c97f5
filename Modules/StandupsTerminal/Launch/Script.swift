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
/// single character (`q`, `?`, `D`). `type "…"` types text (`\"` and `\\` inside the quotes).
/// `wait` takes `ms`, `s`, `m` or `h` (`wait 1m30s`). `screen` prints the frame, at 80×24
/// unless given a size (`screen 40x12`). Blank lines and lines starting with `#` are skipped.
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
    /// Type text, a key per character.
    case type(String)
    /// Let time pass on the app's clock.
    case wait(Duration)
    /// Print the frame as plain text.
    case screen(Size)
  }

  /// Parses a script; nothing runs unless every line is a command.
  ///
  /// - Throws: ``ScriptError`` naming the first line that is not a command.
  public init(_ text: String) throws(ScriptError) {
    var commands: [Line] = []
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      guard !line.isEmpty, !line.hasPrefix("#") else { continue }
      guard let command = Self.command(line) else {
        throw ScriptError(line: index + 1, text: line)
      }
      commands.append(Line(number: index + 1, command: command))
    }
    self.commands = commands
  }

  private static func command(_ line: String) -> Command? {
    if line.hasPrefix("type ") {
      return quoted(String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces))
        .map(Command.type)
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

/// A script line that is not a command.
public struct ScriptError: Error, Equatable, CustomStringConvertible {
  /// The line number, from 1.
  public var line: Int
  /// The line.
  public var text: String

  /// Creates the error for a line.
  public init(line: Int, text: String) {
    self.line = line
    self.text = text
  }

  /// The error in words: the line's number and text.
  public var description: String {
    "Script line \(line) is not a command: \(text)"
  }
}
