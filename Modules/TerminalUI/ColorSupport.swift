import Foundation

/// How many colours the terminal can show, which decides how ``RGB`` colours are written.
///
/// Detect it once at start-up and pass it to ``frameUpdate(from:to:colors:)``; views never
/// look at it, so every screen honours `NO_COLOR` and a 16-colour terminal without knowing
/// about either.
///
/// ```swift
/// let colors = ColorSupport.detect(
///   environment: ProcessInfo.processInfo.environment,
///   isTerminal: RawMode.isTerminal(STDOUT_FILENO),
///   terminfoColors: ColorSupport.terminfoColors(term:)
/// )
/// ```
public enum ColorSupport: Hashable, Sendable {
  /// Exact 24-bit colours (`38;2;r;g;b`).
  case trueColor
  /// The nearest colour of the xterm 256-colour palette (`38;5;n`).
  case palette256
  /// The nearest of the 16 ANSI colours (`30`–`37`, `90`–`97`), which every colour terminal
  /// has.
  case ansi16
  /// No colours; bold, dim, reverse and underline are still shown.
  case none

  /// The colour support of the terminal an app writes to: more than 16 colours only where the
  /// terminal says it has them.
  ///
  /// - No colour when `NO_COLOR` is set to a non-empty value (whatever the value, as
  ///   [no-color.org](https://no-color.org) asks), or when the output is not a terminal, so
  ///   that redirected output carries no colour codes.
  /// - 24-bit colour when `COLORTERM` is `truecolor` or `24bit`, which terminals that
  ///   support it set, or when terminfo says the terminal has 16,777,216 colours.
  /// - The 256-colour palette when `TERM` ends in `-256color`, or terminfo says 256 or more.
  /// - No colour when terminfo says the terminal has none (a `vt100`).
  /// - Otherwise the 16 ANSI colours (`xterm`, `linux`, a `TERM` terminfo does not know).
  ///
  /// - Parameters:
  ///   - environment: The process environment.
  ///   - isTerminal: Whether the output is a terminal.
  ///   - terminfoColors: The number of colours terminfo gives a `TERM`; `nil` when it does not
  ///     know it. ``terminfoColors(term:)`` asks `tput`.
  /// - Returns: The colour support to write frames with.
  public static func detect(
    environment: [String: String],
    isTerminal: Bool,
    terminfoColors: (String) -> Int? = { _ in nil }
  ) -> ColorSupport {
    // NB: no-color.org asks that an empty NO_COLOR be ignored, so a script can unset it
    // for one command with `NO_COLOR= command`.
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
      return .none
    }
    guard isTerminal else { return .none }
    switch environment["COLORTERM"]?.lowercased() {
    case "truecolor", "24bit": return .trueColor
    default: break
    }
    let term = environment["TERM"] ?? ""
    if term.hasSuffix("-256color") { return .palette256 }
    switch terminfoColors(term) {
    case let colors? where colors >= 1 << 24: return .trueColor
    case let colors? where colors >= 256: return .palette256
    case let colors? where colors < 8: return .none
    default: return .ansi16
    }
  }

  /// The number of colours terminfo gives `term` (`tput colors`), or `nil` when it cannot be
  /// asked or does not know the terminal.
  public static func terminfoColors(term: String) -> Int? {
    guard !term.isEmpty,
      let tput = ["/usr/bin/tput", "/bin/tput"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tput)
    process.arguments = ["-T", term, "colors"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Int(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
