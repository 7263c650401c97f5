/// How many colours the terminal can show, which decides how ``RGB`` colours are written.
///
/// Detect it once at start-up and pass it to ``frameUpdate(from:to:colors:)``; views never
/// look at it, so every screen honours `NO_COLOR` without knowing about it.
///
/// ```swift
/// let colors = ColorSupport.detect(
///   environment: ProcessInfo.processInfo.environment,
///   isTerminal: RawMode.isTerminal(STDOUT_FILENO)
/// )
/// ```
public enum ColorSupport: Hashable, Sendable {
  /// Exact 24-bit colours (`38;2;r;g;b`).
  case trueColor
  /// The nearest colour of the xterm 256-colour palette (`38;5;n`).
  case palette256
  /// No colours; bold, dim, reverse and underline are still shown.
  case none

  /// The colour support of the terminal an app writes to.
  ///
  /// - No colour when `NO_COLOR` is set to a non-empty value (whatever the value, as
  ///   [no-color.org](https://no-color.org) asks), or when the output is not a terminal, so
  ///   that redirected output carries no colour codes.
  /// - 24-bit colour when `COLORTERM` is `truecolor` or `24bit`, which terminals that
  ///   support it set.
  /// - Otherwise the 256-colour palette, which nearly every terminal in use understands.
  ///
  /// - Parameters:
  ///   - environment: The process environment.
  ///   - isTerminal: Whether the output is a terminal.
  /// - Returns: The colour support to write frames with.
  public static func detect(environment: [String: String], isTerminal: Bool) -> ColorSupport {
    // NB: no-color.org asks that an empty NO_COLOR be ignored, so a script can unset it
    // for one command with `NO_COLOR= command`.
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
      return .none
    }
    guard isTerminal else { return .none }
    switch environment["COLORTERM"]?.lowercased() {
    case "truecolor", "24bit": return .trueColor
    default: return .palette256
    }
  }
}
