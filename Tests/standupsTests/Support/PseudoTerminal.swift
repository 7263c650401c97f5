import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `standups` running on a real pseudo-terminal, as a person would run it: raw keys in, escape
/// sequences out.
///
/// The test reads what the app draws until what it expects appears (or a generous deadline
/// passes, which fails the test): it waits for the app, never for the clock.
///
/// Every wait gives the executor back between short looks at the terminal. While a test store
/// runs, every task in the test process shares one serial executor (`withSerialEffects`), so a
/// test that held it while the app worked would stall every other test for as long. For the
/// same reason a deadline counts only the time spent looking: a wait whose task had no turn for
/// a while (another test ran long on the executor) still looks for as long as it was given.
final class PseudoTerminal {
  private let process = Process()
  private let controller: Int32
  private var bytes: [UInt8] = []

  /// Everything the app has written so far.
  var output: String { String(decoding: bytes, as: UTF8.self) }

  /// The text of the app's last `count` bytes, its escape sequences taken out: what a failed
  /// wait prints, so that the failure says what was on the screen instead.
  func lastText(_ count: Int = 2_000) -> String {
    String(decoding: bytes.suffix(count), as: UTF8.self)
      .replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: " ")
  }

  /// Starts `standups` on a new 80×24 pseudo-terminal.
  init(_ arguments: [String] = [], environment: [String: String]) throws {
    var controller: Int32 = -1
    var device: Int32 = -1
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&controller, &device, nil, nil, &size) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    self.controller = controller
    let terminal = FileHandle(fileDescriptor: device, closeOnDealloc: true)
    process.executableURL = standupsExecutable
    process.arguments = arguments
    process.environment = environment
    if let home = environment["HOME"] {
      process.currentDirectoryURL = URL(fileURLWithPath: home, isDirectory: true)
    }
    process.standardInput = terminal
    process.standardOutput = terminal
    process.standardError = terminal
    try process.run()
    // NB: The app has its own copy; ours would keep the terminal open after the app exits.
    try terminal.close()
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(controller)
  }

  /// Types text (or control bytes) at the keyboard.
  func type(_ text: String) {
    var data = Array(text.utf8)
    while !data.isEmpty {
      let written = write(controller, &data, data.count)
      guard written > 0 else { return }
      data.removeFirst(written)
    }
  }

  /// Reads what the app draws until the output written since `offset` satisfies `condition`.
  ///
  /// - Returns: Whether it did before the deadline.
  @discardableResult
  func read(
    from offset: Int = 0,
    until condition: (String) async -> Bool,
    within deadline: Duration = .seconds(60)
  ) async -> Bool {
    var looked = Duration.zero
    while true {
      if await condition(String(decoding: bytes.dropFirst(offset), as: UTF8.self)) { return true }
      guard looked < deadline, await readAvailable(looked: &looked) else {
        return await condition(String(decoding: bytes.dropFirst(offset), as: UTF8.self))
      }
    }
  }

  /// Reads until `text` appears after `offset`. When it never does, prints the screen's last
  /// text, so that the failure says what the app showed instead.
  @discardableResult
  func read(from offset: Int = 0, untilItShows text: String) async -> Bool {
    let shown = await read(from: offset) { $0.contains(text) }
    if !shown {
      print("Waited in vain for \"\(text)\". The screen's last text:\n\(lastText())")
    }
    return shown
  }

  /// Lets the app's input guard lapse: after a change of screen the user did not make, the app
  /// drops keys until the keyboard has been quiet for half a second. A person pauses to read a
  /// new alert; a test that answers one pauses as long, reading what the app draws meanwhile.
  func pauseToReadTheScreen() async {
    await read(until: { _ in false }, within: .milliseconds(700))
  }

  /// Reads what the app draws for `duration`: a person's pause, or how late a crash comes after
  /// a key.
  func pause(for duration: Duration) async {
    await read(until: { _ in false }, within: duration)
  }

  /// The number of bytes read so far, to look only at what comes after it.
  var mark: Int { bytes.count }

  /// Changes the terminal's size, as a person resizing the window does (the kernel tells the
  /// app with SIGWINCH when the terminal is its controlling one; the test sends it, too).
  func resize(columns: UInt16, rows: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(controller, UInt(TIOCSWINSZ), &size)
    send(SIGWINCH)
  }

  /// Whether the terminal echoes what is typed, as a shell's line settings do and raw mode
  /// does not. The controlling side reads the settings of the app's side.
  var echoesInput: Bool {
    var settings = termios()
    guard tcgetattr(controller, &settings) == 0 else { return false }
    return settings.c_lflag & tcflag_t(ECHO) != 0
  }

  /// Waits until the app is stopped (suspended, as by Ctrl-Z in a shell), reading what it draws
  /// meanwhile.
  ///
  /// - Returns: Whether it stopped before the deadline.
  func waitUntilStopped(within deadline: Duration = .seconds(60)) async -> Bool {
    var looked = Duration.zero
    while looked < deadline {
      var status: Int32 = 0
      // NB: WNOHANG | WUNTRACED reports a stop without reaping; Foundation's own wait for the
      // exit only asks about exits.
      if waitpid(process.processIdentifier, &status, WNOHANG | WUNTRACED) > 0,
        status & 0xff == 0x7f
      {
        return true
      }
      _ = await readAvailable(looked: &looked)
    }
    return false
  }

  /// Sends a signal to the app.
  func send(_ signalNumber: Int32) {
    kill(process.processIdentifier, signalNumber)
  }

  /// Reads the rest of the output and waits for the app to exit.
  ///
  /// - Returns: Its exit status, or `nil` if it was still running at the deadline.
  func waitForExit(within deadline: Duration = .seconds(60)) async -> Int32? {
    var looked = Duration.zero
    while process.isRunning, looked < deadline {
      _ = await readAvailable(looked: &looked)
    }
    // NB: Drained only once the app has exited: while it runs, `readAvailable` reports the
    // terminal open even when there is nothing to read, and the loop would never end.
    guard !process.isRunning else { return nil }
    while readAvailable(waitingUpTo: 0) {}
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Reads whatever the app has written, after a short look for something, adds the time the
  /// look took to `looked`, and gives the executor back.
  ///
  /// - Returns: Whether the terminal is still open (something may come later).
  private func readAvailable(looked: inout Duration) async -> Bool {
    let start = ContinuousClock.now
    let isOpen = readAvailable(waitingUpTo: 10)
    looked += ContinuousClock.now - start
    await Task.yield()
    return isOpen
  }

  /// Reads whatever the app has written, waiting up to `milliseconds` for something.
  ///
  /// - Returns: Whether the terminal is still open (something may come later).
  private func readAvailable(waitingUpTo milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return process.isRunning }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = readFile(controller, &buffer)
    // NB: Linux reports EIO on a pseudo-terminal whose other end has closed.
    guard count > 0 else { return false }
    bytes += buffer[0..<count]
    return true
  }
}

/// `read(2)`, named apart from ``PseudoTerminal``'s own `read`.
private func readFile(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
  buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
}
