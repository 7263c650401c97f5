#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal in raw mode for as long as this object lives: every key is delivered as it is
/// pressed, and nothing is echoed.
///
/// Raw mode turns off the line discipline that a shell relies on (line editing, echo, signal
/// keys), and a terminal left in it is unusable, so the app must restore it on every way out:
/// call ``restore()`` when quitting, and releasing the object restores too.
///
/// ```swift
/// let rawMode = try RawMode(fileDescriptor: STDIN_FILENO)
/// defer { rawMode.restore() }
/// ```
///
/// Signal keys are off: Ctrl-C arrives as `.control("c")` and Ctrl-Z as `.control("z")`, so the
/// app decides what they do (such as asking before quitting a meeting) and can restore the
/// terminal first. Output processing stays on, so a newline printed by anything still
/// returns to the first column.
///
/// This is the only place that talks to termios, so the rest of the toolkit is pure and
/// testable without a terminal.
///
/// NB: not `Sendable`: it owns the terminal's settings and whether they were restored, and the
/// app's one terminal loop is its only user.
public final class RawMode {
  private let fileDescriptor: Int32
  private let original: termios
  private let raw: termios
  private var isRestored = false

  /// Puts the terminal on a file descriptor in raw mode, remembering its settings.
  ///
  /// - Parameter fileDescriptor: The terminal's file descriptor, usually standard input.
  /// - Throws: ``RawModeError`` if the descriptor is not a terminal or its settings cannot be
  ///   changed; the terminal is then left as it was.
  public init(fileDescriptor: Int32) throws {
    var settings = termios()
    guard tcgetattr(fileDescriptor, &settings) == 0 else {
      throw RawModeError(operation: "read the terminal settings", code: errno)
    }
    self.fileDescriptor = fileDescriptor
    self.original = settings

    settings.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    settings.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    settings.c_cflag |= tcflag_t(CS8)
    // NB: a read returns as soon as one byte is there; the app times a lone Esc itself.
    withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
      controlCharacters[Int(VMIN)] = 1
      controlCharacters[Int(VTIME)] = 0
    }
    self.raw = settings
    // NB: TCSAFLUSH drops bytes typed before raw mode, which were meant for a line editor.
    guard tcsetattr(fileDescriptor, TCSAFLUSH, &settings) == 0 else {
      throw RawModeError(operation: "change the terminal settings", code: errno)
    }
  }

  deinit {
    restore()
  }

  /// Puts back the settings the terminal had before; calling it again does nothing.
  ///
  /// Output already written is sent before the settings change (`TCSADRAIN`), so a final
  /// "show cursor" or "leave alternate screen" reaches the terminal first.
  public func restore() {
    guard !isRestored else { return }
    isRestored = true
    var settings = original
    // NB: a failure is ignored: there is no better settings to fall back on, and the app is
    // on its way out.
    _ = tcsetattr(fileDescriptor, TCSADRAIN, &settings)
  }

  /// Puts the terminal in raw mode again after ``restore()``: when the app continues after it
  /// was suspended (Ctrl-Z, then the shell's `fg`), or when something else may have changed the
  /// settings while it was stopped.
  ///
  /// ```swift
  /// rawMode.restore()
  /// raise(SIGSTOP)  // returns when the shell continues the app
  /// rawMode.resume()
  /// ```
  public func resume() {
    isRestored = false
    var settings = raw
    // NB: a failure is ignored: the terminal stays as the shell left it, and the app's next
    // frame still draws; there is nothing better to fall back on.
    _ = tcsetattr(fileDescriptor, TCSADRAIN, &settings)
  }

  /// Whether a file descriptor is a terminal, as opposed to a file or a pipe.
  ///
  /// ```swift
  /// let interactive = RawMode.isTerminal(STDIN_FILENO) && RawMode.isTerminal(STDOUT_FILENO)
  /// ```
  ///
  /// - Parameter fileDescriptor: A file descriptor.
  public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
    isatty(fileDescriptor) == 1
  }

  /// Whether the terminal `TERM` names can be drawn on full screen, moving its cursor and
  /// clearing it, as far as its name tells.
  ///
  /// A terminal that cannot (an editor's shell buffer sets `dumb`; a login that does not know
  /// the line sets `unknown`, `dialup` or `network`; a service may set nothing) would show
  /// every frame as a stream of escape codes, so an app asks before it draws.
  ///
  /// ```swift
  /// let term = ProcessInfo.processInfo.environment["TERM"]
  /// guard RawMode.drawsFullScreen(term: term) else { throw NeedsAFullScreenTerminal() }
  /// ```
  ///
  /// - Parameter term: The value of `TERM`, or `nil` when it is not set.
  public static func drawsFullScreen(term: String?) -> Bool {
    guard let term, !term.isEmpty else { return false }
    return !["dumb", "unknown", "dialup", "network"].contains(term)
  }

  /// The size of the terminal window on a file descriptor, or `nil` if it is not a terminal
  /// or does not know its size.
  ///
  /// ```swift
  /// let size = RawMode.windowSize(of: STDOUT_FILENO) ?? Size(width: 80, height: 24)
  /// ```
  ///
  /// - Parameter fileDescriptor: A file descriptor, usually standard output.
  public static func windowSize(of fileDescriptor: Int32) -> Size? {
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return nil }
    return Size(width: Int(size.ws_col), height: Int(size.ws_row))
  }
}

/// Why the terminal could not be put in raw mode.
///
/// ```swift
/// do {
///   rawMode = try RawMode(fileDescriptor: STDIN_FILENO)
/// } catch {
///   print(error)  // Can't read the terminal settings: Inappropriate ioctl for device.
/// }
/// ```
public struct RawModeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was being done, in words: "read the terminal settings".
  public var operation: String
  /// The `errno` the system reported.
  public var code: Int32

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - operation: What was being done, in words.
  ///   - code: The `errno` the system reported.
  public init(operation: String, code: Int32) {
    self.operation = operation
    self.code = code
  }

  /// "Can't <operation>: <the system's message>."
  public var description: String {
    "Can't \(operation): \(String(cString: strerror(code)))."
  }
}
